// The end of a page's run, for the live text box (assets/live_text.js): mounted last by
// ui/live_text.py's finished() with the seq that run applied, so the next typed text goes at once.
export default function ({ data }) {
  const reg = window.__tpLive;
  if (reg && reg.onDone) reg.onDone(data.name, data.seq);
}
