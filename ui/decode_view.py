"""The Playground's "Decode ids": a pasted list of ids and a tokenizer → the text and its spans.

Each id's bytes come from the vocabulary (``core.tokens.decode_ids``); a list whose bytes are not valid
UTF-8 on their own (cut inside a character) shows its byte groups, token by token, never "�".
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import streamlit as st

from core.tokens.decode_ids import decode_ids, parse_ids
from ui import state
from ui.copy_block import copy_block
from ui.spans import hex_bytes, render_spans
from ui.widgets import md_escape, sentence

IDS_KEY = "pg_decode_ids"  # the pasted ids (a widget key: this expander's own, not in the link)
TOKENIZER_KEY = "pg_decode_tokenizer"


def decode_view(tokenizers: Mapping[str, Any]) -> None:
    """The expander: ids and a tokenizer (one of the Playground's columns) → text, spans, or a message."""
    usable = {key: t for key, t in tokenizers.items() if hasattr(t, "piece")}
    with st.expander("Decode ids", icon=":material/pin:"):
        if not usable:
            st.caption("Pick a tokenizer above to decode ids with it.")
            return
        raw = st.text_area("Token ids", height=80, placeholder="[9906, 11, 1917] or 9906, 11, 1917",
                           help="Commas, spaces or a JSON list.", **state.kept(IDS_KEY))
        key = st.selectbox("Tokenizer", list(usable), format_func=lambda k: usable[k].name,
                           **state.kept(TOKENIZER_KEY))
        if not raw.strip() or key is None:
            return
        tokenizer = usable[key]
        try:
            decoded = decode_ids(tokenizer, parse_ids(raw))
        except ValueError as exc:
            st.error(md_escape(sentence(str(exc))), icon=":material/error:")  # names an uploaded file
            return
        if decoded.text is None:
            st.warning("These ids are not valid UTF-8 on their own (they cut a character), so they have no "
                       "text: here are their bytes, token by token.", icon=":material/warning:")
            copy_block("\n".join(f"{t.id}: {hex_bytes(t.bytes)}" for t in decoded.tokens), key="pg_decoded_bytes", wrap=False)
            return
        copy_block(decoded.text, key="pg_decoded_text")
        st.html(render_spans(decoded.text, list(decoded.tokens), piece=tokenizer.piece))
