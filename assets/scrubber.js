// The scrubber's queue of key presses and clicks (ui/scrubber.py mounts this with ui/client.py).
//
// Streamlit reads a button as "clicked in this run": two clicks before the server has run once
// count as one, so presses made while a step redraws were lost. Here every press is an op with a
// sequence number, kept in the browser until the server says it has applied it (data.ack), and the
// whole list of pending ops is sent as the component's state: a newer list replaces an older one,
// never drops a press, and the server applies each op once, in order.
//
// Keys (not while typing in a text box): ← → one step, Home End the ends, PageUp PageDown the
// previous / next change, P play or pause. Clicks on the scrubber's own buttons (Prev, Next, Play,
// previous / next change, play to next change) are taken here too, before Streamlit sees them.
// One keydown and one click listener per browser tab serve whichever scrubber is mounted.

const KEYS = {
  ArrowLeft: ["step", -1],
  ArrowRight: ["step", 1],
  Home: ["home"],
  End: ["end"],
  PageUp: ["jump", -1],
  PageDown: ["jump", 1],
  p: ["play"],
  P: ["play"],
};
const BUTTONS = {
  prev: ["step", -1],
  next: ["step", 1],
  back: ["jump", -1],
  forth: ["jump", 1],
  play: ["play"],
  tochange: ["tochange"],
};
const STALE_MS = 1500; // presses made this long after the scrubber went away are not for it

function registry() {
  if (!window.__tpSteps) window.__tpSteps = { current: null, byPrefix: {}, installed: false };
  return window.__tpSteps;
}

function scrubber(prefix) {
  const all = registry().byPrefix;
  if (!all[prefix]) all[prefix] = { prefix, seq: 0, ack: 0, ops: [], orphans: [], send: null, goneAt: 0 };
  return all[prefix];
}

// subtle: between two runs Streamlit unmounts the component and mounts it again; presses in that
// gap are kept as orphans and sent by the next mount, unless the scrubber stayed away (page left)
function push(s, op) {
  s.seq += 1;
  if (s.send) {
    s.ops.push([s.seq, op]);
    s.send(s.ops.slice());
  } else {
    s.orphans.push([s.seq, op]);
  }
}

function typing(el) {
  if (!(el instanceof Element)) return false;
  if (el.isContentEditable) return true;
  const tag = el.tagName;
  if (tag === "TEXTAREA" || tag === "SELECT") return true;
  if (tag === "INPUT") return !["range", "checkbox", "radio", "button", "submit"].includes(el.type);
  return Boolean(el.closest('[role="listbox"], [role="combobox"], [role="dialog"]'));
}

// Whether presses are for the scrubber: it is mounted, or went away a moment ago on this same page
// (Streamlit unmounts it between two runs); after the user went to another page they are not.
function listening(s) {
  return s && (s.send || (Date.now() - s.goneAt <= STALE_MS && location.pathname === s.path));
}

function onKey(event) {
  const s = registry().current;
  if (!listening(s)) return; // no scrubber on this page now
  if (event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return;
  const op = KEYS[event.key];
  if (!op || typing(event.target) || typing(document.activeElement)) return;
  event.preventDefault();
  event.stopPropagation();
  push(s, op);
}

function onClick(event) {
  const s = registry().current;
  const target = event.target instanceof Element ? event.target : null;
  if (!target || !listening(s)) return;
  const holder = target.closest(`[class*="st-key-${s.prefix}"]`);
  if (!holder || !target.closest("button")) return;
  const name = [...holder.classList]
    .map((c) => c.startsWith(`st-key-${s.prefix}`) && c.slice(`st-key-${s.prefix}`.length))
    .find((suffix) => suffix in BUTTONS);
  if (!name || target.closest("button").disabled) return;
  event.preventDefault();
  event.stopPropagation();
  push(s, BUTTONS[name]);
}

// A step's marker on its chart, moved in the same frame as the step's HTML. The step element names
// the chart (its Streamlit key), the marker's trace and the point (data-dot-*, ui/bpe/render.py);
// Streamlit redraws the plotly chart a frame or two after the HTML, which showed the old step's
// dot beside the new merge line. A MutationObserver runs before the browser paints, so the dot is
// put where the new step says whenever the step's HTML or the chart changes. It only writes a
// transform that differs, so its own writes do not wake it again.
function placeDots() {
  for (const step of document.querySelectorAll("[data-dot-chart]")) {
    const { dotChart, dotTrace, dotX, dotY } = step.dataset;
    const chart = document.querySelector(`.st-key-${CSS.escape(dotChart)} .js-plotly-plot`);
    const layout = chart && chart._fullLayout;
    if (!layout || !layout.xaxis || !layout.yaxis) continue;
    const trace = chart.querySelectorAll(".scatterlayer .trace")[Number(dotTrace)];
    const point = trace && trace.querySelector("path.point");
    const x = layout.xaxis.l2p(layout.xaxis.d2l(Number(dotX)));
    const y = layout.yaxis.l2p(layout.yaxis.d2l(Number(dotY)));
    if (!point || !Number.isFinite(x) || !Number.isFinite(y)) continue;
    const transform = `translate(${x.toFixed(2)},${y.toFixed(2)})`;
    if (point.getAttribute("transform") !== transform) point.setAttribute("transform", transform);
  }
}

function watchDots() {
  const observer = new MutationObserver(() => {
    if (document.querySelector("[data-dot-chart]")) placeDots();
  });
  observer.observe(document.body, { childList: true, subtree: true, attributes: true, attributeFilter: ["transform"] });
}

export default function ({ data, setStateValue }) {
  const reg = registry();
  const s = scrubber(data.prefix);
  if (s.orphans.length && Date.now() - s.goneAt <= STALE_MS && location.pathname === s.path) s.ops.push(...s.orphans);
  s.orphans = [];
  s.ack = Math.max(s.ack, data.ack);
  s.seq = Math.max(s.seq, s.ack);
  s.ops = s.ops.filter(([seq]) => seq > s.ack);
  const send = (ops) => setStateValue("ops", ops);
  s.send = send;
  s.path = location.pathname;
  reg.current = s;
  if (!reg.installed) {
    reg.installed = true;
    window.addEventListener("keydown", onKey, true);
    window.addEventListener("click", onClick, true);
    watchDots();
  }
  if (s.ops.length) s.send(s.ops.slice()); // presses made while the page redrew this scrubber
  // subtle: a run can mount the new instance before it unmounts the old one (a stale twin): the old
  // one's cleanup must not silence the new one, or every press is dropped until the next run
  return () => {
    if (s.send !== send) return;
    s.send = null;
    s.goneAt = Date.now();
  };
}
