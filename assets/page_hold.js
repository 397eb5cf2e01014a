// Paint holding across page switches, for every page (ui/client.py mounts this once per browser tab).
//
// A click on a link to another page (or on a button that switches pages) starts the new page's run,
// and Streamlit's frontend empties the main block as that run begins: the browser then painted the
// empty block and held it 0.1-0.4 s while its main thread built the new page, a blank page on every
// switch (issue 21, item 8). Browsers keep the old page on screen until the new one has something to
// show ("paint holding"); this does the same with a view transition. The click's old frame stays on
// screen, still, until the new page's title is in the document (or HOLD_MS at most: a page that fails
// before its title, a server too busy to draw it), and the new page then replaces it at once: the
// transition is skipped as soon as its update is done, so it never animates (while it would, a click
// reaches no control). The document under the picture is the live one throughout; only what is
// painted waits.
// Listeners are installed once per browser tab.

const HOLD_MS = 1500;
const LINKS = '[data-testid="stPageLink-NavLink"], [data-testid="stSidebarNav"] a[href]';
// a button whose run switches pages (st.switch_page: "Open in the Playground"), by its key's prefix
// (ui/client.py GOTO_KEY_PREFIX): the frontend then keeps the old page until the new one's elements
// come, but under load it too showed an empty main block for a frame
const GOTO = '[class*="st-key-tp_goto_"] button';
const TITLE = '[data-testid="stMain"] [data-testid="stMainBlockContainer"] h1';

// The promise the transition waits for: the new page's title, told by its words (every page has its
// own; the frontend may reuse the old page's title node for the new one, and a button's rerun of the
// old page may draw its title again before the switch).
function newTitle(old) {
  const words = old.textContent;
  return new Promise((resolve) => {
    const drawn = () => {
      const title = document.querySelector(TITLE);
      return title !== null && title.textContent !== words;
    };
    if (drawn()) {
      resolve();
      return;
    }
    const observer = new MutationObserver(() => drawn() && done());
    const timer = setTimeout(() => done(), HOLD_MS);
    function done() {
      observer.disconnect();
      clearTimeout(timer);
      resolve();
    }
    observer.observe(document.body, { childList: true, subtree: true, characterData: true });
  });
}

function onClick(event) {
  if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
  const clicked = event.target instanceof Element ? event.target : null;
  const link = clicked && clicked.closest(LINKS);
  if (link) {
    if (link.target && link.target !== "_self") return;
    // a page link's href is the page's path under the app ("" for the main page), the last part of
    // the address while that page is shown: the same one is no switch
    const target = link.getAttribute("href");
    if (target === null || /^[a-z]+:|^\/\//i.test(target) || target === location.pathname.split("/").pop()) return;
  } else {
    const button = clicked && clicked.closest(GOTO);
    if (!button || button.disabled) return;
  }
  const old = document.querySelector(TITLE);
  if (!old) return;  // nothing worth holding
  try {
    const transition = document.startViewTransition(() => newTitle(old));
    // no animation: the transition ends as the title arrives (while it animates, clicks reach no control)
    transition.updateCallbackDone.then(() => transition.skipTransition(), () => {});
    transition.ready.catch(() => {});  // skipped: "ready" is rejected, and that is the plan
  } catch (error) {
    // a hidden tab or a transition refused: the switch goes on unheld, as before
  }
}

export default function () {
  if (window.__tpHoldInstalled || typeof document.startViewTransition !== "function") return;
  window.__tpHoldInstalled = true;
  document.addEventListener("click", onClick, true);
}
