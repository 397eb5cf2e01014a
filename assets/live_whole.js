// The whole-page mark, for the live text box (assets/live_text.js) on a page whose box and columns
// are an st.fragment (the Playground): mounted by ui/live_text.py's whole_page_drawn() at the end of
// a whole-page run, with the seq of the text that run drew. When typing pauses after a newer text,
// the box calls ask(seq): a trigger of this element, which lies outside the fragment, so Streamlit
// reruns the whole page (the counts, the ids and the link follow the text).
export default function ({ data, setTriggerValue }) {
  if (!window.__tpLive) window.__tpLive = { boxes: {}, done: {} };
  const reg = window.__tpLive;
  if (!reg.whole) reg.whole = {};
  const known = reg.whole[data.name];
  reg.whole[data.name] = {
    seq: data.seq,
    asked: known ? Math.max(known.asked, data.seq) : data.seq,
    ask: (seq) => setTriggerValue("whole", seq),
  };
}
