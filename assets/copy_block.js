// A block of plain text with a Copy button (ui/copy_block.py mounts it): the Playground's token ids,
// an uploaded text's preview, decoded ids.
//
// st.code drew these through Streamlit's syntax highlighter, a 1.5 MB script that the browser fetched
// and compiled for the first code block of a page. The text goes in as textContent, never as markup.
// Copy uses the clipboard API where the page has it (a secure context: https or localhost); elsewhere
// (a room's http address) it selects the text and asks the browser to copy the selection.

async function copyText(block, button) {
  const text = block.__tpText;
  let copied = false;
  if (navigator.clipboard && navigator.clipboard.writeText) {
    try {
      await navigator.clipboard.writeText(text);
      copied = true;
    } catch (error) {
      copied = false; // refused (no permission, not focused): fall back to the selection
    }
  }
  if (!copied) {
    const range = document.createRange();
    range.selectNodeContents(block.querySelector("pre"));
    const selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
    try {
      copied = document.execCommand("copy");
    } catch (error) {
      copied = false;
    }
  }
  // the text stays selected when the browser would not copy: Ctrl+C then does
  button.textContent = copied ? "Copied" : "Selected: press Ctrl+C";
  clearTimeout(button.__tpReset);
  button.__tpReset = setTimeout(() => {
    button.__tpReset = null;
    button.textContent = block.__tpLabel;
  }, 1500);
}

function build(parentElement) {
  const block = document.createElement("div");
  block.className = "tp-copy";
  const button = document.createElement("button");
  button.type = "button";
  button.className = "tp-copy-button";
  button.addEventListener("click", () => copyText(block, button));
  const pre = document.createElement("pre");
  pre.className = "tp-copy-text";
  pre.tabIndex = 0; // scrollable by keyboard
  block.append(button, pre);
  // appended: Streamlit puts the component's stylesheet (assets/copy_block.css) in this element too
  parentElement.append(block);
  return block;
}

export default function ({ parentElement, data }) {
  const block = parentElement.querySelector(":scope > .tp-copy") || build(parentElement);
  const pre = block.querySelector("pre");
  const button = block.querySelector("button");
  if (block.__tpText !== data.text) {
    pre.textContent = data.text;
    block.__tpText = data.text;
  }
  block.__tpLabel = data.label;
  if (!button.__tpReset) button.textContent = data.label;
  button.setAttribute("aria-label", data.label);
  pre.classList.toggle("tp-copy-wrap", Boolean(data.wrap));
  pre.style.maxHeight = data.height ? `${data.height}px` : "";
}
