"""Chat formats: one conversation as each model family's chat template turns it into tokens.

Reads top to bottom: the conversation (sidebar) → the formats to show → one card per format (spans,
cost per turn) → why an API's count differs. The formats are data in core/chat/formats.py; the cards
come from ui/chat/views.py.
"""

from __future__ import annotations

import streamlit as st

from core.chat import formats as cf
from core.chat import templates as ct
from ui import links, nav, state
from ui.chat import own, views

nav.page_setup("Chat formats")
state.init(state.chat_defaults())
links.sync(state.chat_defaults(), {
    state.CF_SYSTEM: None, state.CF_USER: None, state.CF_TOOL_ON: None, state.CF_TOOL_NAME: None,
    state.CF_TOOL_ARGS: None, state.CF_TOOL_RESULT: None, state.CF_REPLY: None,
    state.CF_FORMATS: links.one_of([*cf.FORMATS, *ct.TEMPLATES]), state.CF_SHOW_WHITESPACE: None,
}, page="chat")

st.title("Chat formats")
nav.intro(
    "A chat model never sees messages: it sees one sequence of tokens in which special tokens mark "
    "whose turn it is. The same conversation in each family's format, with what the format itself costs."
)
with st.sidebar:
    st.markdown("**Conversation**")
    st.text_area("System", **state.kept(state.CF_SYSTEM), height=68)
    st.text_area("User", **state.kept(state.CF_USER), height=68)
    tool_on = st.toggle("Tool call and its result", **state.kept(state.CF_TOOL_ON))
    if tool_on:
        st.text_input("Function", **state.kept(state.CF_TOOL_NAME))
        st.text_input("Arguments (JSON)", **state.kept(state.CF_TOOL_ARGS))
        st.text_input("Result (JSON)", **state.kept(state.CF_TOOL_RESULT))
    st.text_area("Assistant reply", height=68, help="Empty: the format's reply prompt is shown.",
                 **state.kept(state.CF_REPLY))
    show_whitespace = st.toggle("Show whitespace · ↵", **state.kept(state.CF_SHOW_WHITESPACE))
    own.sidebar()

titles = {**{k: f.title for k, f in cf.FORMATS.items()}, **{k: t.title for k, t in ct.TEMPLATES.items()}}
keys = st.multiselect("Formats", list(titles), format_func=titles.get, **state.kept(state.CF_FORMATS),
                      help="'Its own template': the chat template of the model's tokenizer_config.json, run in a sandbox.")
s = st.session_state
if not s[state.CF_USER].strip():
    st.info("Type a user message in the sidebar to see the formats.")
    st.stop()
tool = (s[state.CF_TOOL_NAME] or "tool", s[state.CF_TOOL_ARGS], s[state.CF_TOOL_RESULT]) if tool_on else None
messages = cf.conversation(system=s[state.CF_SYSTEM], user=s[state.CF_USER], reply=s[state.CF_REPLY], tool=tool)
if not keys:
    st.info("Pick one or more formats above.")
for key in keys:
    with st.container(border=True):
        if key in ct.TEMPLATES:
            views.template_card(ct.TEMPLATES[key], messages, show_whitespace=show_whitespace)
        else:
            views.format_card(cf.FORMATS[key], messages, show_whitespace=show_whitespace)
own.cards(messages, show_whitespace=show_whitespace)

with st.expander("Why an API reports a different count", icon=":material/help:"):
    st.markdown(
        "An API counts what it actually sends to the model, and some of that is hidden from you: tool "
        "definitions are rendered into a system message in the provider's own format, the reply is primed "
        "with a few tokens, images and files become tokens of their own, and some providers add a default "
        "system prompt. OpenAI's published guidance, for example, counts 3 tokens of framing per message "
        "and 3 for the reply's priming. The counts here are the conversation's own tokens under each "
        "format: exact for what is shown, and a lower bound for what an API bills."
    )
