// The browser side of the compact span markup, for every page (ui/client.py mounts this once).
//
// ui/spans.py writes pills as <b class=cN>text</b> with no title: a token's id comes from its
// box's data-ids list (base 36, in element order), its bytes and piece are derived from what the
// pill shows, and written out (data-b, data-p) only where they cannot be. ui/span_facts.py states
// the protocol and holds its Python twin; the tests compare the two on the same markup.
//
// - window.tpFacts(el): a token element's facts {id, bytes, hex, piece, extra, kind};
//   assets/pin.js reads them when a click or tap pins a token.
// - One hover tooltip for every span box, delegated from the document (no title on each pill).
// - A box that holds fewer tokens than the text has (data-more) presses its "Show more" button
//   when its last line scrolls into view (in the box or on the page).
// Everything user-supplied reaches the page through textContent, never as HTML.

const UNMARK = { "·": " ", "→": "\t", "↵": "", "␍": "\r", "⍽": "\u00a0", "□": "\u3000" };
const TIP_MARKS = { " ": "·", "\t": "→", "\n": "↵", "\r": "␍", "\u00a0": "⍽" };
const KIND_NOTES = {
  "tp-byte": "byte-fallback piece",
  "tp-unk": "unknown token: the text under it is lost",
  "tp-special": "special token",
  "tp-added": "added by the tokenizer, not in the text",
};
const TARGETS = ".tp-spans b, .tp-spans .tp-group, .tp-spans .tp-gap";

// GPT-2's printable stand-in for each byte (core/pretrained/adapter.py, _byte_level_alphabet).
const BYTE_TO_UNICODE = (() => {
  const printable = (b) => (b >= 0x21 && b <= 0x7e) || (b >= 0xa1 && b <= 0xac) || (b >= 0xae && b <= 0xff);
  const out = [];
  let extra = 0;
  for (let b = 0; b < 256; b++) out.push(String.fromCodePoint(printable(b) ? b : 0x100 + extra++));
  return out;
})();
const UNICODE_TO_BYTE = new Map(BYTE_TO_UNICODE.map((c, b) => [c, b]));
const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const encoder = new TextEncoder();

function spell(spelling, bytes) {
  if (spelling === "b") return Array.from(bytes, (b) => BYTE_TO_UNICODE[b]).join("");
  let text;
  try {
    text = decoder.decode(bytes);
  } catch {
    return null;
  }
  return spelling === "m" ? text.replaceAll(" ", "\u2581") : text;
}

function unspell(spelling, piece) {
  if (spelling === "b") {
    const out = [];
    for (const c of piece) {
      const b = UNICODE_TO_BYTE.get(c);
      if (b === undefined) return null;
      out.push(b);
    }
    return Uint8Array.from(out);
  }
  return encoder.encode(spelling === "m" ? piece.replaceAll("\u2581", " ") : piece);
}

function unhex(text) {
  const digits = text.replace(/\s+/g, "");
  if (digits.length % 2 || /[^0-9a-fA-F]/.test(digits)) return null;
  const out = new Uint8Array(digits.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(digits.slice(2 * i, 2 * i + 2), 16);
  return out;
}

function hex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).toUpperCase().padStart(2, "0")).join(" ");
}

// An element's text with the whitespace marks (i elements) read back as what they stand for.
function ownText(el) {
  let text = "";
  for (const node of el.childNodes) {
    if (node.nodeType === Node.TEXT_NODE) text += node.data;
    else if (node.nodeName === "I") text += UNMARK[node.textContent] ?? node.textContent;
    else if (node.nodeType === Node.ELEMENT_NODE) text += ownText(node);
  }
  return text;
}

// A token's label: its element's text, then (outside the raw view) the line breaks and tp-cont
// boxes right after it, for a token holding a line break is drawn one box per line.
function label(el, raw) {
  let text = ownText(el);
  if (raw) return text;
  for (let node = el.nextSibling; node; node = node.nextSibling) {
    if (node.nodeType === Node.TEXT_NODE && /^\n+$/.test(node.data)) text += node.data;
    else if (node.nodeName === "B" && node.classList.contains("tp-cont")) text += ownText(node);
    else break;
  }
  return text;
}

const boxes = new WeakMap();

function boxInfo(box) {
  let info = boxes.get(box);
  if (!info || info.ids !== box.dataset.ids) {
    const tokens = box.querySelectorAll("b:not(.tp-cont)");
    const index = new Map();
    tokens.forEach((token, i) => index.set(token, i));
    info = {
      ids: box.dataset.ids,
      list: (box.dataset.ids || "").split(",").filter(Boolean).map((x) => parseInt(x, 36)),
      index,
      raw: box.classList.contains("tp-raw"),
      spelling: box.dataset.s || "t",
    };
    boxes.set(box, info);
  }
  return info;
}

// The element that stands for the token: a tp-cont box belongs to the box before it.
function head(el) {
  while (el && el.classList.contains("tp-cont")) el = el.previousElementSibling;
  return el;
}

function kindOf(el) {
  for (const [name, note] of Object.entries(KIND_NOTES)) if (el.classList.contains(name)) return note;
  const group = el.closest(".tp-group");
  if (group && group.classList.contains("tp-byte")) return KIND_NOTES["tp-byte"];
  return el.classList.contains("tp-zw") ? "inserted by the tokenizer, not in the text" : "";
}

function tokenFacts(element) {
  const el = head(element);
  const box = el && el.closest(".tp-spans");
  if (!box) return null;
  const info = boxInfo(box);
  const text = label(el, info.raw);
  const chip = el.parentElement && el.parentElement.closest(".tp-group") !== null;
  let bytes;
  if (el.dataset.b !== undefined) bytes = unhex(el.dataset.b);
  else if (info.raw) bytes = unspell(info.spelling, text);
  else if (chip) bytes = unhex(text);
  else bytes = encoder.encode(text);
  bytes = bytes || new Uint8Array();
  let piece;
  if (el.dataset.ph !== undefined) piece = decoder.decode(unhex(el.dataset.ph) || new Uint8Array());
  else if (el.dataset.p !== undefined) piece = el.dataset.p;
  else piece = info.raw ? text : spell(info.spelling, bytes) ?? "";
  const index = info.index.get(el);
  return {
    id: index === undefined ? null : info.list[index],
    bytes,
    hex: hex(bytes),
    piece,
    extra: el.dataset.x || "",
    kind: kindOf(el),
    color: [...el.classList].find((c) => /^c\d+$/.test(c)) || "",
  };
}

function marked(text) {
  return text.replace(/[ \t\n\r\u00a0]/g, (c) => TIP_MARKS[c]);
}

function groupText(group) {
  let text = "";
  for (const node of group.childNodes) {
    if (node.nodeType === Node.TEXT_NODE) text += node.data;
    else if (node.nodeName === "U") text += ownText(node);
  }
  return text;
}

function tipText(target) {
  if (target.classList.contains("tp-gap")) return "not covered by any token";
  if (target.classList.contains("tp-group")) {
    const chips = target.querySelectorAll("s > b").length;
    const name = target.querySelector("s[data-c]");
    return `${chips} tokens share ${marked(groupText(target))}` + (name ? ` (${name.dataset.c})` : "");
  }
  const facts = tokenFacts(target);
  if (!facts) return "";
  const lines = [`id ${facts.id}`, `bytes ${facts.hex || "(none)"} · ${facts.bytes.length} B`];
  lines.push(facts.piece ? `piece ${marked(facts.piece)}` : "piece (empty)");
  if (facts.kind) lines.push(facts.kind);
  if (facts.extra) lines.push(facts.extra);
  return lines.join("\n");
}

const tip = { el: null, target: null };

function hideTip() {
  if (tip.el) tip.el.remove();
  tip.el = tip.target = null;
}

function showTip(target) {
  const text = tipText(target);
  if (!text) return hideTip();
  if (!tip.el) {
    tip.el = document.createElement("div");
    tip.el.className = "tp-tip";
    tip.el.setAttribute("role", "tooltip");
    document.body.appendChild(tip.el);
  }
  tip.target = target;
  tip.el.textContent = text;
  const rect = target.getBoundingClientRect();
  const box = tip.el.getBoundingClientRect();
  const below = rect.bottom + 6 + box.height <= window.innerHeight;
  const top = below ? rect.bottom + 6 : Math.max(4, rect.top - 6 - box.height);
  const left = Math.min(Math.max(4, rect.left), window.innerWidth - box.width - 4);
  tip.el.style.top = `${top}px`;
  tip.el.style.left = `${left}px`;
}

function onOver(event) {
  const target = event.target instanceof Element ? event.target.closest(TARGETS) : null;
  if (target === tip.target) return;
  if (target) showTip(target);
  else hideTip();
}

// "Show more": press the box's button once its last line (the tp-limit note) is in view. The box
// is drawn anew with more tokens; where it was scrolled to, and whether it had been clicked to take
// the wheel (tp-scrolling, assets/pin.js), are kept by its data-box name and given back to the new
// box before the browser paints it, so reading on never jumps back to the top.
let watcher = null;
let scanning = false;
const scrolledTo = new Map();

function pressMore(box) {
  if (!box.isConnected || box.dataset.asked) return;
  const key = box.dataset.more;
  const buttons = key ? [...document.querySelectorAll(`.st-key-${CSS.escape(key)} button`)] : [];
  const button = buttons.filter((b) => b.offsetParent !== null).pop(); // the visible one, the newest
  if (!button) {
    // subtle: a box a typed key patched (assets/live_cards.js) may have more to draw before the
    // whole-page run has drawn its button: watch its note again, and the button's arrival (a
    // mutation: watchNotes) presses it if the end is still in view
    const note = box.querySelector(":scope > .tp-limit");
    if (note) delete note.dataset.watched;
    return;
  }
  box.dataset.asked = "1";
  if (box.dataset.box) {
    scrolledTo.set(box.dataset.box, [box.scrollTop, box.classList.contains("tp-scrolling")]);
  }
  if (!button.disabled) button.click();
}

function restoreScroll() {
  for (const [name, [top, scrolling]] of scrolledTo) {
    const box = document.querySelector(`.tp-spans[data-box="${CSS.escape(name)}"]:not([data-asked])`);
    if (!box) continue;
    scrolledTo.delete(name);
    // subtle: a big box skips laying out its contents until it is known to be on screen
    // (content-visibility: auto), so it has nothing to scroll yet: the box being read is laid out now
    box.style.contentVisibility = "visible";
    if (box.scrollTop === 0) box.scrollTop = top;
    if (scrolling) box.classList.add("tp-scrolling");
  }
}

// Cards side by side (the Playground's columns): each card's head (name, count, lossy flag) is as
// tall as the tallest head of its row, so the span boxes of one row start at one height.
const HEADS = ".tp-card-head"; // ui/card.py, drawn by assets/span_box.js

function alignHeads() {
  for (const row of document.querySelectorAll('[data-testid="stHorizontalBlock"]')) {
    const heads = [...row.querySelectorAll(`:scope > [data-testid="stColumn"] ${HEADS}`)];
    if (heads.length < 2) continue;
    for (const head of heads) head.style.minHeight = "";
    const tops = heads.map((h) => h.getBoundingClientRect().top);
    if (Math.max(...tops) - Math.min(...tops) > 2) continue; // stacked, not side by side
    const tallest = Math.max(...heads.map((h) => h.getBoundingClientRect().height));
    for (const head of heads) head.style.minHeight = `${tallest}px`;
  }
}

function watchNotes() {
  if (scrolledTo.size) restoreScroll();
  if (scanning) return;
  scanning = true;
  requestAnimationFrame(() => {
    scanning = false;
    alignHeads();
    for (const note of document.querySelectorAll(".tp-spans[data-more] > .tp-limit:not([data-watched])")) {
      note.dataset.watched = "1";
      watcher.observe(note);
    }
  });
}

export default function () {
  window.tpFacts = tokenFacts;
  if (window.__tpSpansInstalled) return;
  window.__tpSpansInstalled = true;
  document.addEventListener("mouseover", onOver, true);
  document.addEventListener("scroll", hideTip, true);
  document.addEventListener("pointerdown", hideTip, true);
  watcher = new IntersectionObserver((entries) => {
    for (const entry of entries) {
      if (!entry.isIntersecting) continue;
      watcher.unobserve(entry.target);
      pressMore(entry.target.closest(".tp-spans"));
    }
  });
  new MutationObserver(watchNotes).observe(document.body, { childList: true, subtree: true });
  window.addEventListener("resize", watchNotes);
  watchNotes();
}
