// Pinned token facts and the wheel over span boxes, for every page (ui/client.py mounts this once).
//
// - A click or tap on a pill (anything with data-id: ui/spans.py pills and group chips, the BPE
//   page's chips) pins its facts in a panel: id, bytes, piece, kind, the extra line. The facts are
//   read from the pill's data-* attributes, so the markup can change as long as they stay.
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
const PILL = ".tp-t[data-id], .tp-gb[data-id], .bpe-chip[data-id]";

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

function tokenFacts(el) {
  const hex = el.dataset.b || "";
  const count = hex ? hex.split(" ").length : 0;
  const rows = [
    row("id", el.dataset.id),
    row("bytes", hex ? `${hex} (${count} byte${count === 1 ? "" : "s"})` : "none"),
    row("piece", el.dataset.p || "(empty)"),
    row("kind", kindOf(el)),
  ];
  if (el.dataset.x) rows.push(row("also", el.dataset.x));
  // a chip of a group holds part of a character: its bytes say more than its vocabulary spelling
  const shown = el.classList.contains("tp-gb") ? hex || el.dataset.p : el.textContent;
  const colour = [...el.classList].find((c) => /^tp-c\d+$/.test(c)) || "";
  return `<div class="tp-pin-title"><span class="tp-t ${colour}">${escape(shown)}</span></div><dl>${rows.join("")}</dl>`;
}

function groupFacts(group) {
  const chips = [...group.querySelectorAll(".tp-gb[data-id]")];
  const text = (group.querySelector(".tp-gtext") || group).textContent;
  const rows = chips.map((chip, i) => row(`token ${i + 1}`, `id ${chip.dataset.id} · ${chip.dataset.b || "no bytes"}`));
  const named = group.querySelector(".tp-gcount");
  return (
    `<div class="tp-pin-title">${escape(text)}</div>` +
    `<dl>${row("tokens", named ? named.textContent : String(chips.length))}${rows.join("")}</dl>`
  );
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
