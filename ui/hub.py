"""The sidebar field for a Hugging Face Hub tokenizer: fetched by ``core.pretrained.hub``, kept like an upload.

What the user typed stays in the field whatever happens; a failure is one sentence under it. The
tokenizer joins this session's uploads (``ui.uploads``), so every picker, the pipeline view and
Inside a tokenizer treat it as an uploaded file; the repository's tokenizer_config.json, when it has
one, is kept beside it for its chat template (``state.HUB_CONFIGS``).
"""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from core.pretrained import hub
from core.pretrained.uploaded import UPLOAD_PREFIX, Upload, UploadRejected
from ui import state
from ui.widgets import md_escape

Adopt = Callable[[Upload, bytes, str], None]  # ui.uploads.adopt: keep it in the session, pick it, say so


def hub_field(prefix: str, adopt: Adopt) -> None:
    """The text field; Enter fetches the tokenizer it names and hands it to ``adopt``."""
    key = f"{prefix}hub_ref"
    st.text_input(
        "Or a Hugging Face Hub tokenizer", key=key, on_change=_on_ref, args=(key, adopt),
        placeholder="org/name, org/name@revision or a file URL",
        help="Fetched with huggingface_hub (HF_ENDPOINT, HF_HUB_OFFLINE and your `hf auth login` token apply; "
             "the playground never stores the token), cached, then read like an uploaded file.",
    )


def _on_ref(key: str, adopt: Adopt) -> None:
    text = str(st.session_state.get(key) or "").strip()
    if not text:
        return
    try:
        with st.spinner(md_escape(f"Fetching {text} …")):  # drawn at the top of the page while the callback runs
            upload, hub_file = hub.load(text)
    except (hub.HubFailed, UploadRejected) as exc:
        st.session_state[state.UPLOAD_MESSAGE] = ("error", str(exc))
        return
    revision = f", revision {hub_file.revision[:12]}" if hub_file.revision else ""
    adopt(upload, hub_file.data, f"Added {upload.filename} (sha256 {hub_file.sha256[:8]}{revision})")
    configs = st.session_state[state.HUB_CONFIGS]
    kept = st.session_state[state.UPLOADED_TOKENIZERS]
    for slot in [s for s in configs if s not in kept]:
        configs.pop(slot)
    if hub_file.config is not None:
        configs[UPLOAD_PREFIX + hub_file.sha256[:16]] = (upload.filename, hub_file.config)
