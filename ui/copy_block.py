"""A block of plain text with a Copy button, for long plain text: token ids, an upload's preview,
decoded ids.

``st.code`` draws through Streamlit's syntax highlighter, a 1.5 MB script that the browser fetches and
compiles for the first code block of a page: on the Playground, whose ids view is one, that was
0.75 to 1.6 s of the browser's main thread on every visit at load 9 to 10 (a chromium profile of the
page's load), for text that is never highlighted. This components-v2 element (``assets/copy_block.js``)
sets the text as ``textContent``, so no part of it can become markup, and copies it with the
clipboard API or, where the page has none (an http address), by selecting it.
"""

from __future__ import annotations

import streamlit as st

from ui.scripts import script, style

COMPONENT = "tp_copy_block"
_block = st.components.v2.component(COMPONENT, js=script("copy_block.js"), css=style("copy_block.css"),
                                    isolate_styles=False)


def copy_block(text: str, *, key: str, label: str = "Copy", height: int | None = None, wrap: bool = True) -> None:
    """Draw ``text`` as plain monospaced text with a ``label`` button that copies it; ``height`` caps the
    block in pixels (it scrolls), ``wrap`` breaks long lines."""
    _block(key=key, data={"text": text, "label": label, "height": height, "wrap": wrap}, height="content")
