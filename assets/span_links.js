// The Playground's columns, read together (ui/span_links.py mounts this on that page only).
//
// Each column's box (ui/spans.py's compact markup) draws the original text in order, so the
// character offsets of its tokens are found here by walking it: no offsets travel in the markup.
// With them:
// - the caret: the token(s) under the live text box's caret or selection (assets/live_text.js
//   publishes it in code points) are outlined in every column at once (class tp-caret);
// - the pointer: hovering a token (or pinning it: class tp-pinned from assets/pin.js) marks the
//   tokens of every other column that overlap its characters (class tp-link);
// - disagreements (data.disagree: the "Mark disagreements" switch): a token whose end is a boundary not every
//   column has gets class tp-cut (a notch at its end). Compared on the characters every column
//   draws; a boundary inside a character (byte tokens of one emoji) is the character's own, so
//   a group counts as one piece.
// - the ids view (data.view: Text | Ids | Both): a pill shows its id instead of, or beside, its text.
// The raw-pieces view draws vocabulary entries, not the text: no offsets, so none of this there.

const UNMARK = { "·": " ", "→": "\t", "↵": "", "␍": "\r", "⍽": "\u00a0", "□": "\u3000" };
const BOXES = ".tp-box > .tp-spans:not(.tp-raw)";

function length(text) {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

function shownText(el) {
  let text = "";
  for (const node of el.childNodes) {
    if (node.nodeType === Node.TEXT_NODE) text += node.data;
    else if (node.nodeName === "I") text += UNMARK[node.textContent] ?? node.textContent;
    else if (node.nodeName === "S") continue; // a group's byte chips
    else if (node.nodeType === Node.ELEMENT_NODE) text += shownText(node);
  }
  return text;
}

// [{els, start, end}] of a box, in order; cached on the box until its markup changes.
function tokensOf(box) {
  if (box.__tpTokens && box.__tpTokensOf === box.dataset.ids) return box.__tpTokens;
  const tokens = [];
  let pos = 0;
  let last = null;
  for (const node of box.childNodes) {
    if (node.nodeType === Node.TEXT_NODE) {
      pos += length(node.data); // the line breaks of a token drawn one box per line
      if (last) last.end = pos;
      continue;
    }
    if (node.nodeType !== Node.ELEMENT_NODE) continue;
    const cls = node.classList;
    if (node.nodeName === "B") {
      if (cls.contains("tp-cont")) {
        pos += length(shownText(node));
        if (last) { last.end = pos; last.els.push(node); }
        continue;
      }
      const zero = cls.contains("tp-added") || cls.contains("tp-zw");
      const start = pos;
      if (!zero) pos += length(shownText(node));
      last = { els: [node], start, end: pos, zero };
      tokens.push(last);
    } else if (cls.contains("tp-group")) {
      const start = pos;
      pos += length(shownText(node));
      last = { els: [node, ...node.querySelectorAll("s > b")], start, end: pos, zero: false, group: true };
      tokens.push(last);
    } else if (cls.contains("tp-gap")) {
      pos += length(shownText(node));
      last = null;
    }
  }
  box.__tpTokens = tokens;
  box.__tpTokensOf = box.dataset.ids;
  return tokens;
}

function boxes() {
  return [...document.querySelectorAll(BOXES)];
}

function overlapping(tokens, start, end) {
  return tokens.filter((t) => !t.zero && t.start < end && t.end > start);
}

function setClass(name, elements) {
  const keep = new Set(elements);
  for (const el of document.querySelectorAll(`.${name}`)) if (!keep.has(el)) el.classList.remove(name);
  for (const el of keep) el.classList.add(name);
}

function markCaret() {
  const caret = window.__tpLive && window.__tpLive.caret;
  if (!caret) return setClass("tp-caret", []);
  const out = [];
  for (const box of boxes()) {
    const tokens = tokensOf(box);
    let hit = caret.end > caret.start
      ? overlapping(tokens, caret.start, caret.end)
      : overlapping(tokens, caret.start, caret.start + 1);
    if (!hit.length && caret.end === caret.start) hit = overlapping(tokens, caret.start - 1, caret.start);
    for (const t of hit) out.push(...t.els.filter((el) => el.nodeName === "B" || el.classList.contains("tp-group")));
  }
  setClass("tp-caret", out);
}

function tokenAt(el) {
  const box = el.closest(BOXES);
  if (!box) return null;
  const item = el.closest("b, .tp-group");
  const token = tokensOf(box).find((t) => t.els.includes(item));
  return token ? { box, token } : null;
}

let hovered = null;

function markLinks() {
  const from = hovered || document.querySelector(".tp-pinned");
  const found = from && tokenAt(from);
  if (!found || found.token.zero) return setClass("tp-link", []);
  const out = [];
  for (const box of boxes()) {
    if (box === found.box) continue;
    for (const t of overlapping(tokensOf(box), found.token.start, found.token.end)) out.push(t.els[0]);
  }
  setClass("tp-link", out);
}

// Boundaries (token ends) every column has, within the characters every column draws.
function markCuts() {
  const on = window.__tpLinks && window.__tpLinks.disagree;
  const all = boxes();
  if (!on || all.length < 2) return setClass("tp-cut", []);
  const lists = all.map((box) => tokensOf(box).filter((t) => !t.zero));
  const reach = Math.min(...lists.map((ts) => (ts.length ? ts[ts.length - 1].end : 0)));
  const counts = new Map();
  for (const ts of lists) for (const end of new Set(ts.map((t) => t.end))) counts.set(end, (counts.get(end) || 0) + 1);
  const out = [];
  for (const ts of lists) {
    for (const t of ts) if (t.end < reach && counts.get(t.end) < all.length) out.push(t.els[t.els.length - 1].closest(".tp-group") || t.els[t.els.length - 1]);
  }
  setClass("tp-cut", out);
}

// The ids view (data.view "ids" or "both"): each pill's id as data-i, read by the CSS; the ids
// come from the box's data-ids list (base 36, one per token element; tp-cont boxes are not tokens).
function assignIds() {
  const view = (window.__tpLinks && window.__tpLinks.view) || "text";
  document.documentElement.dataset.tpView = view;
  if (view === "text") return;
  for (const box of document.querySelectorAll(".tp-box > .tp-spans")) {
    if (box.__tpIdsOf === box.dataset.ids) continue;
    const ids = (box.dataset.ids || "").split(",");
    let i = 0;
    for (const el of box.querySelectorAll("b")) {
      if (el.classList.contains("tp-cont")) continue;
      if (i < ids.length && ids[i] !== "") el.dataset.i = String(parseInt(ids[i], 36));
      i++;
    }
    box.__tpIdsOf = box.dataset.ids;
  }
}

function refresh() {
  assignIds();
  markCaret();
  markLinks();
  markCuts();
}

export default function ({ data }) {
  const first = !window.__tpLinks;
  window.__tpLinks = { disagree: Boolean(data && data.disagree), view: (data && data.view) || "text" };
  if (!first) return refresh();
  document.addEventListener("tp-live-caret", () => markCaret());
  document.addEventListener("mouseover", (event) => {
    const target = event.target instanceof Element ? event.target.closest(`${BOXES} b, ${BOXES} .tp-group`) : null;
    if (target === hovered) return;
    hovered = target;
    markLinks();
  });
  document.addEventListener("click", () => setTimeout(markLinks, 0));
  let queued = false;
  new MutationObserver(() => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => { queued = false; refresh(); });
  }).observe(document.body, { childList: true, subtree: true });
  refresh();
}
