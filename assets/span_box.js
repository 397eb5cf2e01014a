// A token box patched in place (ui/span_box.py mounts it: the Playground's columns).
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

export default function ({ parentElement, data }) {
  const drawn = parentElement.querySelector(":scope > .tp-box > .tp-spans");
  if (drawn && drawn.__tpHtml === data.html) return; // a run that did not change this box
  const template = document.createElement("template");
  template.innerHTML = data.html;
  const fresh = template.content.firstElementChild;
  let holder = parentElement.firstElementChild;
  if (!holder || !holder.classList.contains("tp-box")) {
    holder = document.createElement("div");
    holder.className = "tp-box";
    parentElement.replaceChildren(holder);
  }
  let box = holder.firstElementChild;
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
