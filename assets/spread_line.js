// The spread line above the Playground's columns (ui/span_links.py spread_line): plain text, written
// as text. A typed key rewrites it in place with the columns' counts (assets/live_cards.js).

export default function ({ parentElement, data }) {
  let line = parentElement.querySelector(":scope > .tp-spread");
  if (!line) {
    line = document.createElement("div");
    line.className = "tp-spread";
    parentElement.replaceChildren(line);
  }
  if (line.textContent !== data.line) line.textContent = data.line;
  line.hidden = !data.line;
}
