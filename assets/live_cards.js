// A typed key's columns (ui/playground_live.py follow): the Playground's cards patched in place, and
// the end of the key's run (the live box's done mark, assets/live_done.js does it for other runs).
//
// A key reruns only the live box's fragment. Its run sends, as this element's data, what each column
// the page drew shows for the new text ({cards: [{name, html, head, foot}], spread}); each card is
// found by its span box's key and drawn by that box's own code (assets/span_box.js, through
// window.__tpCard), which swaps only the pills and text that changed. The Streamlit elements around
// the cards are not sent again: the whole-page run once typing pauses draws them, and the same markup.

// Until then the columns' Export and "Show more" still hold the text the page drew last, so while this
// element is on the page (a whole-page run does not draw it) they are marked behind and take no click
// (assets/spans.css): an export chosen in that moment would have saved the previous text's tokens.
// subtle: the mark is on those elements, not on the document's root. Streamlit calls an element's
// cleanup before each call with new data, not only when it leaves the page, so the mark goes off and
// on at each key; on the root that restyled the whole document twice a key (about 13 ms of the
// browser's main thread at 1 KB x 4).
const BEHIND = '[class*="st-key-pg_export_"], [class*="st-key-pg_more_"]';

function markBehind(on) {
  for (const el of document.querySelectorAll(BEHIND)) el.toggleAttribute("data-tp-behind", on);
}

export default function ({ data }) {
  const draw = window.__tpCard;
  if (!draw || !data) return;
  markBehind(true);
  const cards = typeof data.cards === "string" ? JSON.parse(data.cards) : data.cards || [];
  for (const card of cards) {
    const host = document.querySelector(`[data-tp-card="${CSS.escape(card.name)}"]`);
    if (host) draw(host, card);
  }
  const line = document.querySelector(".tp-spread");
  if (line && data.spread !== undefined) {
    if (line.textContent !== data.spread) line.textContent = data.spread;
    line.hidden = !data.spread;
  }
  // the end of the key's run (ui/live_text.py done_mark): the next typed text may go now
  const reg = window.__tpLive;
  const done = typeof data.done === "string" ? JSON.parse(data.done) : data.done;
  if (done && reg && reg.onDone) reg.onDone(done.name, done.seq);
  return () => markBehind(false);
}
