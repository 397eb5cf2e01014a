// Pinned token facts and the wheel over span boxes, for every page (ui/client.py mounts this once).
//
// - A click or tap on a pill (a ui/spans.py pill or group chip, whose facts assets/spans.js derives
//   from the compact markup as window.tpFacts, or anything with data-id: the BPE page's chips) pins
//   its facts in a panel: id, bytes, piece, kind, the extra line.
//   The same pill again, Escape, the panel's x or a click outside any span box unpins.
// - A span box that holds more than it shows scrolls itself only once clicked; until then the wheel
//   scrolls the page, so moving down a page of boxes never gets stuck in one.
// Listeners are installed once per browser tab and act on whatever is on the page at the time.

const KINDS = {
  "tp-byte": "byte-fallback piece",
  "tp-unk": "unknown token: the text under it is lost",
  "tp-special": "special token, read from the text",
  "tp-added": "added by the tokenizer, not in the text",
};
const PILL = ".tp-spans b, .tp-t[data-id], .bpe-chip[data-id]";

function escape(text) {
  const div = document.createElement("div");
  div.textContent = text;
  return div.innerHTML;
}

function kindOf(el) {
  for (const [cls, note] of Object.entries(KINDS)) if (el.classList.contains(cls)) return note;
  const group = el.closest(".tp-group");
  if (group && group.classList.contains("tp-byte")) return KINDS["tp-byte"];
  return el.classList.contains("tp-zw") ? "inserted by the tokenizer, not in the text" : "text";
}

function row(name, value) {
  return `<dt>${escape(name)}</dt><dd>${escape(value)}</dd>`;
}

// {id, hex, piece, extra, kind, color, shown} of a pill: derived (spans.js) or from data-* attributes.
function factsOf(el) {
  if (el.dataset.id === undefined && window.tpFacts) {
    const facts = window.tpFacts(el);
    if (facts) {
      // a chip of a group holds part of a character: its bytes say more than its vocabulary spelling
      const chip = el.closest(".tp-group") !== null;
      const shown = chip ? facts.hex || facts.piece : el.textContent;
      return { ...facts, kind: facts.kind || "text", color: facts.color.replace(/^c/, "tp-c"), shown };
    }
  }
  const hex = el.dataset.b || "";
  return {
    id: el.dataset.id, hex, piece: el.dataset.p || "", extra: el.dataset.x || "", kind: kindOf(el),
    color: [...el.classList].find((c) => /^tp-c\d+$/.test(c)) || "", shown: el.textContent,
  };
}

function tokenFacts(el) {
  const facts = factsOf(el);
  const count = facts.hex ? facts.hex.split(" ").length : 0;
  const piece = facts.piece.replace(/[ \t\n\r\u00a0]/g, (c) => ({ " ": "·", "\t": "→", "\n": "↵", "\r": "␍", "\u00a0": "⍽" })[c]);
  const rows = [
    row("id", String(facts.id)),
    row("bytes", facts.hex ? `${facts.hex} (${count} byte${count === 1 ? "" : "s"})` : "none"),
    row("piece", piece || "(empty)"),
    row("kind", facts.kind),
  ];
  if (facts.extra) rows.push(row("also", facts.extra));
  return `<div class="tp-pin-title"><span class="tp-t ${facts.color}">${escape(facts.shown)}</span></div><dl>${rows.join("")}</dl>`;
}

function groupFacts(group) {
  const chips = [...group.querySelectorAll("s > b, .tp-gb[data-id]")];
  let text = "";
  for (const node of group.childNodes) if (node.nodeType === Node.TEXT_NODE || node.nodeName === "U") text += node.textContent;
  const rows = chips.map((chip, i) => {
    const facts = factsOf(chip);
    return row(`token ${i + 1}`, `id ${facts.id} · ${facts.hex || "no bytes"}`);
  });
  const name = group.querySelector("s[data-c]");
  const count = `${chips.length} tokens` + (name ? ` · ${name.dataset.c}` : "");
  return `<div class="tp-pin-title">${escape(text)}</div><dl>${row("tokens", count)}${rows.join("")}</dl>`;
}

const pin = { panel: null, target: null };

function unpin() {
  if (pin.target) pin.target.classList.remove("tp-pinned");
  if (pin.panel) pin.panel.remove();
  pin.panel = pin.target = null;
}

function show(target, html) {
  unpin();
  const panel = document.createElement("div");
  panel.className = "tp-pin";
  panel.setAttribute("role", "status");
  panel.innerHTML = `<button class="tp-pin-close" aria-label="Close">×</button>${html}`;
  document.body.appendChild(panel);
  target.classList.add("tp-pinned");
  pin.panel = panel;
  pin.target = target;
}

function onClick(event) {
  const target = event.target instanceof Element ? event.target : null;
  if (!target) return;
  if (target.closest(".tp-pin-close")) return unpin();
  if (target.closest(".tp-pin")) return;
  const box = target.closest(".tp-spans");
  for (const other of document.querySelectorAll(".tp-spans.tp-scrolling")) {
    if (other !== box) other.classList.remove("tp-scrolling");
  }
  if (box && box.scrollHeight > box.clientHeight + 2) box.classList.add("tp-scrolling");
  const pill = target.closest(PILL);
  const group = pill ? null : target.closest(".tp-group");
  const hit = pill || group;
  if (!hit) {
    if (!box) unpin();
    return;
  }
  if (hit === pin.target) return unpin();
  show(hit, pill ? tokenFacts(pill) : groupFacts(group));
}

function scroller(el) {
  for (let node = el.parentElement; node; node = node.parentElement) {
    const style = getComputedStyle(node);
    if (/(auto|scroll)/.test(style.overflowY) && node.scrollHeight > node.clientHeight) return node;
  }
  return document.scrollingElement;
}

function onWheel(event) {
  const box = event.target instanceof Element ? event.target.closest(".tp-spans") : null;
  if (!box || box.classList.contains("tp-scrolling") || box.scrollHeight <= box.clientHeight + 2) return;
  const page = scroller(box);
  if (!page) return;
  event.preventDefault();
  const unit = event.deltaMode === 1 ? 40 : event.deltaMode === 2 ? page.clientHeight : 1;
  page.scrollBy({ top: event.deltaY * unit, left: event.deltaX * unit });
}

let marking = false;
function markOverflowing() {
  if (marking) return;
  marking = true;
  requestAnimationFrame(() => {
    marking = false;
    for (const box of document.querySelectorAll(".tp-spans")) {
      box.classList.toggle("tp-overflowing", box.scrollHeight > box.clientHeight + 2);
    }
  });
}

export default function () {
  if (window.__tpPinInstalled) return;
  window.__tpPinInstalled = true;
  document.addEventListener("click", onClick, true);
  document.addEventListener("keydown", (event) => event.key === "Escape" && unpin());
  document.addEventListener("wheel", onWheel, { passive: false, capture: true });
  new MutationObserver(markOverflowing).observe(document.body, { childList: true, subtree: true });
  window.addEventListener("resize", markOverflowing);
  markOverflowing();
}
