"""Unicode & bytes: what a text is made of before any tokenizer sees it.

Reads top to bottom: the text → its facts (grapheme clusters, counts, odd characters; cached) →
one view at a time: the characters table (paged), the normalization forms side by side, what real
tokenizers' normalizers do to it, and the odd characters. The logic lives in core/text/unicode_info.py,
core/text/normalization.py, core/text/tokenizer_normalizers.py and ui/unicode/.
"""

from __future__ import annotations

import streamlit as st

from ui import cache, compare, links, live_text, nav, state, text_state
from ui.unicode import views

nav.page_setup("Unicode & bytes")
compare.inject_css()
state.init(state.unicode_defaults())
repaired = text_state.repair_surrogates(state.UC_TEXT)  # before anything sends the text to the browser

VIEWS = {
    "characters": "Characters",
    "normalization": "Normalization",
    "tokenizers": "What tokenizers see",
    "flags": "Odd characters",
}
links.sync(state.unicode_defaults(), {
    state.UC_TEXT: None, state.UC_VIEW: links.one_of(VIEWS), state.UC_PAGE: links.in_range(1, 10**9),
    state.UC_TOKENIZERS: links.one_of(cache.registry_names()),
}, page="unicode")

st.title("Unicode & bytes")
nav.intro(
    "A tokenizer never sees letters: it sees code points and UTF-8 bytes, often after a normalization."
)
text = live_text.live_text("Text", key=state.UC_TEXT, height=100)
if not text:
    st.info("Type or paste some text above to see its characters, code points and bytes.")
    live_text.finished(state.UC_TEXT)
    st.stop()
text_state.surrogate_warning(repaired)

facts = views.text_facts(text)
views.counts_line(facts)
view = st.segmented_control(
    "View", list(VIEWS), format_func=VIEWS.__getitem__, **state.kept(state.UC_VIEW), required=True,
    label_visibility="collapsed",
)

if view == "characters":
    views.characters_view(text, facts)
elif view == "normalization":
    views.normalization_view(text)
    with st.expander("Why normalization matters for tokens"):
        st.markdown(
            "Café typed with a composed é (one code point, U+00E9) and with e + a combining accent "
            "(two code points) look the same but are different bytes, so a byte-level tokenizer gives "
            "them different tokens. NFC makes them equal; NFKC also folds look-alikes such as ﬁ and ①, "
            "which is why T5 and the legacy Claude tokenizer apply it; BERT-uncased goes further and "
            "strips accents, so it cannot tell *año* (year) from *ano* (anus)."
        )
elif view == "tokenizers":
    views.tokenizers_view(text)
else:
    views.flags_view(facts)
live_text.finished(state.UC_TEXT)
