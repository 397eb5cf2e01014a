"""Chat templates the user brings: a tokenizer_config.json uploaded here, or the one of a Hub tokenizer.

An uploaded config is paired with a tokenizer the user picks (the registry's or this session's
uploads); a Hub repository fetched in the sidebar field (``ui.hub``) brings its own config, paired
with its own tokenizer. Both are drawn by ``ui.chat.views.template_body`` and stay in this session.
"""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from core.chat import formats as cf
from core.chat import templates as ct
from ui import cache, state, uploads, widgets
from ui.chat import views


def sidebar() -> None:
    """The config uploader and the tokenizer that reads its output."""
    state.init({state.CF_CONFIG_TOKENIZER: "qwen"})
    st.markdown("**Your own chat template**")
    st.file_uploader("A model's tokenizer_config.json", type=["json"], key=state.CF_CONFIG_UPLOAD,
                     max_upload_size=ct.MAX_CONFIG_BYTES // (1024 * 1024),
                     help="Its chat_template is run in a sandbox, with time and size limits; it stays in this session.")
    if st.session_state.get(state.CF_CONFIG_UPLOAD) is not None:
        names = uploads.names()
        uploads.prune(state.CF_CONFIG_TOKENIZER)
        st.selectbox("Tokenize it with", list(names), format_func=names.get,
                     **state.kept(state.CF_CONFIG_TOKENIZER))


def cards(messages: Sequence[cf.Message], *, show_whitespace: bool) -> None:
    """One card for the uploaded config, one for each Hub tokenizer that came with a config."""
    uploaded = st.session_state.get(state.CF_CONFIG_UPLOAD)
    if uploaded is not None:
        key = st.session_state[state.CF_CONFIG_TOKENIZER]
        _card(f"{uploaded.name} (uploaded)", uploaded.getvalue(), key, messages, show_whitespace)
    for slot, (shown, data) in st.session_state.get(state.HUB_CONFIGS, {}).items():
        _card(f"{shown.rsplit('/', 1)[0]} (its own template)", data, slot, messages, show_whitespace)


def _card(title: str, data: bytes, key: str, messages: Sequence[cf.Message], show_whitespace: bool) -> None:
    with st.container(border=True):
        st.markdown(f"#### {widgets.md_escape(title)}")
        tokenizer = uploads.get_tokenizer(key)
        if isinstance(tokenizer, cache.Unavailable):
            widgets.unavailable_card(tokenizer, retry_key=f"cf_retry_own_{key}")
            return
        try:
            config = ct.read_config(data, title)
        except ct.TemplateFailed as exc:
            st.error(widgets.md_escape(f"{exc}."), icon=":material/error:")
            return
        views.template_body(title, config, tokenizer, messages, show_whitespace=show_whitespace,
                            notes=f"Rendered from the chat_template of {title}")
