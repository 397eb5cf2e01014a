// A token box patched in place (ui/span_box.py mounts it: the Playground's columns, with their heads).
//
// The server sends the box's whole markup (ui/spans.py render_spans, where every piece of text is
// escaped) on every run. Drawn by st.html, each run re-created every pill of every column: a key
// typed at 1 KB x 4 columns had the browser sanitize, parse, style and lay out ~1,600 pills again.
// Here the markup is parsed off the document (a template: no style, no layout) and only the box's
// children that differ from those on screen are swapped: a key changes a pill or two, and the rest
// stay as they are, with their layout, hover and pin.
//
// The box sits in a div.tp-box (the columns' boxes are ".tp-box > .tp-spans"). Page scripts add
// classes of their own to the box (tp-overflowing): an attribute is written only when the server's
// value changed since the last run, so theirs survive a run that did not change it.

function syncAttributes(box, fresh) {
  const before = box.__tpServer || {};
  const now = {};
  for (const { name, value } of Array.from(fresh.attributes)) {
    now[name] = value;
    if (before[name] !== value) box.setAttribute(name, value);
  }
  for (const name of Object.keys(before)) {
    if (!(name in now)) box.removeAttribute(name);
  }
  box.__tpServer = now;
}

// The box's children on screen match, one for one, the children of the markup the server sent last
// (box.__tpLast, kept off the document). The new markup is compared with that, not with the screen,
// where page scripts mark pills (the caret's token, disagreements, ids): a marked pill that the
// server did not change is kept, marks and all.
function patchChildren(box, fresh) {
  const last = box.__tpLast;
  const now = Array.from(fresh.childNodes);
  const live = box.childNodes;
  if (!last || last.length !== live.length) {
    box.replaceChildren(...now.map((node) => node.cloneNode(true)));
    box.__tpLast = now;
    return;
  }
  let head = 0;
  while (head < last.length && head < now.length && last[head].isEqualNode(now[head])) head++;
  let tail = 0;
  while (tail < last.length - head && tail < now.length - head
         && last[last.length - 1 - tail].isEqualNode(now[now.length - 1 - tail])) tail++;
  const anchor = tail ? live[live.length - tail] : null;
  for (let k = live.length - tail - 1; k >= head; k--) live[k].remove();
  for (const node of now.slice(head, now.length - tail)) box.insertBefore(node.cloneNode(true), anchor);
  box.__tpLast = now;
}

// A Playground column's head and foot (ui/card.py) come in the same data as plain text: written as
// text (textContent), never as markup, and only where they changed, so a key that changes a count
// writes one text node. The facts button opens and closes the source details here, with no rerun.

function make(tag, className) {
  const el = document.createElement(tag);
  if (className) el.className = className;
  return el;
}

function setText(el, text) {
  if (el.textContent !== text) el.textContent = text;
}

function chevron() {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("aria-hidden", "true");
  const path = document.createElementNS("http://www.w3.org/2000/svg", "path");
  path.setAttribute("d", "M16.59 8.59 12 13.17 7.41 8.59 6 10l6 6 6-6z");
  svg.append(path);
  return svg;
}

function buildCard(parentElement) {
  const card = { head: make("div", "tp-card-head"), name: make("h4", "tp-card-name"), count: make("strong"),
    added: make("span", "tp-card-added"), facts: make("button", "tp-card-facts"), label: make("span"),
    lossy: make("div", "tp-card-lossy"), details: make("div", "tp-card-details"), holder: make("div", "tp-box"),
    foot: make("div", "tp-card-foot"), line: make("span"), help: make("span", "tp-card-help") };
  const row = make("div", "tp-card-row");
  const count = make("span", "tp-card-count");
  count.append(card.count, card.added);
  card.facts.type = "button";
  card.facts.setAttribute("aria-expanded", "false");
  card.facts.append(card.label, chevron());
  card.facts.addEventListener("click", () => {
    card.details.hidden = !card.details.hidden;
    card.facts.setAttribute("aria-expanded", String(!card.details.hidden));
  });
  row.append(count, card.facts);
  card.lossy.setAttribute("role", "note");
  card.head.append(card.name, row, card.lossy);
  card.details.hidden = true;
  card.help.textContent = "?";
  card.help.tabIndex = 0;
  card.foot.append(card.line, card.help);
  parentElement.replaceChildren(card.head, card.details, card.holder, card.foot);
  parentElement.__tpCard = card;
  return card;
}

function drawHead(card, head) {
  card.head.hidden = !head;
  if (!head) {
    card.details.hidden = true;
    return;
  }
  setText(card.name, head.name);
  setText(card.count, head.count);
  setText(card.added, head.added);
  setText(card.label, head.facts);
  if (card.facts.title !== head.help) card.facts.title = head.help;
  setText(card.lossy, head.lossy);
  card.lossy.hidden = !head.lossy;
  const details = JSON.stringify(head.details);
  if (card.detailsOf !== details) {
    card.details.replaceChildren(...head.details.map((line) => { const p = make("p"); p.textContent = line; return p; }));
    card.detailsOf = details;
  }
}

function drawFoot(card, foot) {
  card.foot.hidden = !foot;
  if (!foot) return;
  setText(card.line, foot.line);
  card.help.hidden = !foot.help;
  if (card.help.title !== (foot.help || "")) {
    card.help.title = foot.help || "";
    card.help.setAttribute("aria-label", foot.help || "");
  }
}

// head and foot come as JSON text (ui/span_box.py box_data), or as objects
function parsed(value) {
  return typeof value === "string" ? JSON.parse(value) : value || null;
}

function draw(parentElement, data) {
  parentElement.dataset.tpCard = data.name || "";
  let card = parentElement.__tpCard;
  if (!card || card.holder.parentElement !== parentElement) card = buildCard(parentElement);
  drawHead(card, parsed(data.head));
  drawFoot(card, parsed(data.foot));
  const holder = card.holder;
  const drawn = holder.firstElementChild;
  if (drawn && drawn.__tpHtml === data.html) return; // a run that did not change this box
  const template = document.createElement("template");
  template.innerHTML = data.html;
  const fresh = template.content.firstElementChild;
  let box = drawn;
  if (!fresh) {
    holder.replaceChildren();
    return;
  }
  if (!box || box.tagName !== fresh.tagName) {
    box = document.createElement(fresh.tagName);
    holder.replaceChildren(box);
  }
  syncAttributes(box, fresh);
  patchChildren(box, fresh);
  box.__tpHtml = data.html;
  // a "Show more" the box asked for (assets/spans.js) is answered: the box may ask again, and
  // spans.js gives back its scroll position and its wheel (tp-scrolling) as for a new box
  delete box.dataset.asked;
}

// assets/live_cards.js draws a typed key's cards through this (the element's own data comes later,
// with the whole-page run, and is then the same markup: a no-op)
window.__tpCard = draw;

export default function ({ parentElement, data }) {
  draw(parentElement, data);
}
