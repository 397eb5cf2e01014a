// The live text box (ui/live_text.py mounts it): the text goes to the server while it is typed.
//
// Streamlit's text area applies only on Ctrl+Enter or blur. Here the textarea is ours and lives in
// the browser for as long as the page does: the server never writes into it except to replace the
// whole text on purpose (an upload, a link, a sample button), so typing never stutters, the caret
// never jumps and focus and scroll stay where they are, whatever the server is doing.
//
// Protocol (ui/live_text.py states it too):
// - The browser sends its text as the state "typed" = {seq, text, version}: seq counts the texts
//   this tab sent; version is the server-set text this one was typed over.
// - data.version is the server's count of texts it set itself. A larger one than the browser has
//   applied replaces the browser's text (and caret goes to the end); anything else the server says
//   about the text is an echo of what the browser sent, and is ignored.
// - data.ack: the largest seq the server has seen; a "done" mark (ui/live_text.py finished(), after
//   the columns) says the run for that seq has drawn what follows the text (window.__tpLive.done).
//   A text whose seq the server has not acknowledged after RESEND_MS is sent again (a message sent
//   while disconnected is lost); the server applies each text once, by its seq.
// Sending: a text goes at once when no run is in flight, else it waits for the run to finish
// (the newest text only: older ones are never sent), so the columns follow the typing run after
// run and never show an older text after a newer one. A paste goes at once. Above data.pauseChars
// characters the text goes only when typing pauses (data.pauseMs without a key), with a note.
// Whole-page runs: where a key reruns only a fragment (the Playground), the page's parts outside it
// follow once typing pauses: data.settleMs after the done mark of the newest text, with nothing
// newer typed, the box asks the page's whole-page mark (assets/live_whole.js) for one whole run.

const MAX_WAIT_MS = 1500; // a run that never says it is done (stopped early) frees the queue after this
// A text the server has not acknowledged (data.ack) after this long is sent again, the wait doubling
// each time: a message sent while the page was disconnected (a replica died, the network dropped) is
// lost, and on reconnecting Streamlit does not rerun the page, so nothing else would send it.
const RESEND_MS = 3000;
const RESEND_MAX_MS = 30000;

function registry() {
  if (!window.__tpLive) window.__tpLive = { boxes: {}, done: {} };
  return window.__tpLive;
}

function codePoints(text, end) {
  let count = 0;
  for (let i = 0; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c < 0xd800 || c > 0xdbff || i + 1 >= end) count++;
    else {
      const d = text.charCodeAt(i + 1);
      count++;
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
  }
  return count;
}

// The caret (or selection) in code points, as window.__tpLive.caret for the columns' outline.
function publishCaret(s) {
  const box = s.box;
  if (!box) return;
  const text = box.value;
  const start = codePoints(text, box.selectionStart);
  const end = box.selectionEnd === box.selectionStart ? start : codePoints(text, box.selectionEnd);
  const reg = registry();
  reg.caret = { name: s.name, start, end, seq: s.seq, focused: document.activeElement === box };
  document.dispatchEvent(new CustomEvent("tp-live-caret", { detail: reg.caret }));
}

// subtle: data.ack arrives when a run starts (the box is drawn first); only the done mark says the
// columns are drawn, and a text sent before that would stop the run that is drawing them
function inFlight(s) {
  const done = registry().done[s.name] || 0;
  return s.sentSeq > done && Date.now() - s.sentAt < MAX_WAIT_MS;
}

function flush(s) {
  clearTimeout(s.timer);
  s.timer = null;
  if (s.box === null || s.box.value === s.sentText || s.composing) return;
  if (inFlight(s)) {
    s.timer = setTimeout(() => flush(s), 30);
    return;
  }
  s.seq += 1;
  s.sentSeq = s.seq;
  s.sentAt = Date.now();
  s.sentText = s.box.value;
  s.send({ seq: s.seq, text: s.sentText, version: s.version });
  publishCaret(s);
  awaitAck(s, s.seq, s.resendWait || RESEND_MS);
}

function awaitAck(s, seq, wait) {
  clearTimeout(s.resend);
  s.resend = setTimeout(() => {
    if (s.ack >= seq || s.seq !== seq) { s.resendWait = 0; return; } // acknowledged, or a newer text went
    if (!document.contains(s.box)) return; // the box is not on this page (another page is shown)
    const app = document.querySelector("[data-test-script-state]");
    if (app && app.getAttribute("data-test-script-state") !== "notRunning") {
      awaitAck(s, seq, wait); // the server is at work (a slow run, not a lost text): wait on
      return;
    }
    s.resendWait = Math.min(wait * 2, RESEND_MAX_MS);
    // subtle: on a page whose box is in an st.fragment, a key asks for a rerun of that fragment, and a
    // server that has not run the page yet (another replica, after reconnecting) does not know it, so
    // a text sent again the same way would be lost again. Ask for a whole-page run instead: it carries
    // every widget's state, the text's included, and draws the fragment there. (Sent together, the
    // two would go as one fragment rerun: Streamlit batches them under the fragment's id.)
    // The next time, if still not acknowledged, the text goes again (a new seq): the server then
    // knows the fragment and the box, and applies it.
    const whole = (registry().whole || {})[s.name];
    if (whole && s.wholeFor !== seq) {
      s.wholeFor = seq;
      whole.asked = Math.max(whole.asked, seq);
      whole.ask(seq);
      awaitAck(s, seq, s.resendWait);
      return;
    }
    s.sentText = null; // not acknowledged: send the text again, with a new seq
    flush(s);
  }, wait);
}

// Ask for one whole-page run when typing has paused and the last text's fragment run is done.
function settle(s) {
  clearTimeout(s.settleTimer);
  const whole = (registry().whole || {})[s.name];
  if (!whole || whole.asked >= s.sentSeq) return;
  s.settleTimer = setTimeout(() => {
    const now = (registry().whole || {})[s.name];
    if (!now || s.timer || s.composing || s.box.value !== s.sentText || inFlight(s)) return;
    if (now.asked >= s.sentSeq || now.seq >= s.sentSeq) return;
    now.asked = s.sentSeq;
    now.ask(s.sentSeq);
  }, s.settleMs);
}

function schedule(s, wait) {
  clearTimeout(s.timer);
  s.timer = setTimeout(() => flush(s), wait);
}

function paused(s) {
  return s.box.value.length > s.pauseChars;
}

function onInput(s, event) {
  clearTimeout(s.settleTimer);
  updateNote(s);
  // subtle: sent from the input event itself, not from a timer: a timer's task came after the
  // frame that draws the key and the key-up and caret handlers, about 10 ms later (bench/keys_ab.py)
  if ((event && event.inputType === "insertFromPaste") || !paused(s)) flush(s);
  else schedule(s, s.pauseMs);
}

function updateNote(s) {
  const on = paused(s);
  s.note.hidden = !on;
  s.holder.toggleAttribute("data-paused", on);
}

function build(s, parent, data) {
  const holder = document.createElement("div");
  holder.className = "tp-live";
  const label = document.createElement("label");
  label.className = "tp-live-label";
  label.textContent = data.label;
  const box = document.createElement("textarea");
  box.className = "tp-live-box";
  box.spellcheck = false;
  box.setAttribute("aria-label", data.label);
  box.style.height = `${data.height}px`;
  if (data.placeholder) box.placeholder = data.placeholder;
  const note = document.createElement("div");
  note.className = "tp-live-note";
  note.textContent = data.pauseNote;
  note.hidden = true;
  label.append(box);
  holder.append(label, note);
  box.addEventListener("input", (event) => onInput(s, event));
  box.addEventListener("compositionstart", () => { s.composing = true; });
  box.addEventListener("compositionend", () => { s.composing = false; onInput(s, null); });
  for (const type of ["select", "keyup", "mouseup", "focus", "blur"]) box.addEventListener(type, () => publishCaret(s));
  document.addEventListener("selectionchange", () => { if (document.activeElement === box) publishCaret(s); });
  s.holder = holder;
  s.box = box;
  s.note = note;
  parent.append(holder);
}

function replaceText(s, text) {
  s.box.value = text;
  s.sentText = text;
  s.box.selectionStart = s.box.selectionEnd = text.length;
  clearTimeout(s.timer);
  s.timer = null;
}

export default function ({ parentElement, data, setStateValue }) {
  const reg = registry();
  if (!reg.boxes[data.name]) {
    reg.boxes[data.name] = {
      name: data.name, seq: 0, ack: 0, sentSeq: 0, sentAt: 0, sentText: null, version: 0, box: null,
      resend: null, resendWait: 0, wholeFor: 0,
    };
  }
  const s = reg.boxes[data.name];
  s.send = (value) => setStateValue("typed", value);
  s.pauseChars = data.pauseChars;
  s.pauseMs = data.pauseMs;
  s.settleMs = data.settleMs || 350;
  s.ack = Math.max(s.ack, data.ack);
  s.seq = Math.max(s.seq, data.ack);
  if (!s.holder || !parentElement.contains(s.holder)) {
    // subtle: Streamlit may mount the element again (another page and back, a new parent): the
    // textarea is kept and moved, so its text, caret, focus and scroll survive the move
    const hadFocus = s.box !== null && document.activeElement === s.box;
    const caret = s.box && [s.box.selectionStart, s.box.selectionEnd, s.box.scrollTop];
    if (s.holder) parentElement.append(s.holder);
    else build(s, parentElement, data);
    if (caret) {
      s.box.scrollTop = caret[2];
      if (hadFocus) s.box.focus({ preventScroll: true });
      s.box.setSelectionRange(caret[0], caret[1]);
    }
    if (s.version === 0) {
      s.version = data.version;
      replaceText(s, data.text);
    }
  }
  if (data.version > s.version) {
    s.version = data.version;
    replaceText(s, data.text);
  }
  s.box.style.maxHeight = data.maxHeight || "";
  updateNote(s);
  if (s.box.value !== s.sentText && !s.timer) schedule(s, 0); // typed while this element was away
}

// Called by assets/live_done.js when a run that applied ``seq`` has drawn the whole page.
registry().onDone = (name, seq) => {
  const reg = registry();
  reg.done[name] = Math.max(reg.done[name] || 0, seq);
  const s = reg.boxes[name];
  if (s && s.timer && !inFlight(s) && !paused(s)) flush(s);
  if (s && s.box && !s.timer && s.box.value === s.sentText) settle(s);
};
