"""AppTest for the chat-formats page (pages/10_Chat_formats.py)."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from core.chat import formats as cf
from core.chat import templates as ct
from tests.pages.apptest import open_page, rerun
from ui import state
from ui.widgets import md_escape

PAGE = str(Path(__file__).resolve().parents[2] / "pages" / "10_Chat_formats.py")


def run_page() -> AppTest:
    return open_page(PAGE, timeout=120)


def cards(at: AppTest) -> list[str]:
    return [m.value for m in at.markdown if m.value.startswith("#### ")]


def test_default_shows_every_format_with_spans_and_costs() -> None:
    at = run_page()
    titles = [f.title for f in cf.FORMATS.values()] + [t.title for t in ct.TEMPLATES.values()]
    assert cards(at) == [f"#### {md_escape(title)}" for title in titles]
    spans = [h.proto.body for h in at.html if h.proto.body.startswith('<div class="tp-spans')]
    unavailable = [h for h in at.html if h.proto.body.startswith('<div class="tp-unavailable">')]
    refused = [w for w in at.warning if "refuses this conversation" in w.value]
    waiting = [b for b in at.button if str(b.key).startswith("cf_load_")]  # a heavy tokenizer, loaded on a click
    assert len(spans) + len(unavailable) + len(refused) + len(waiting) == len(titles) and len(spans) >= 3 + 2
    assert any("tp-special" in body for body in spans)
    assert any("of which" in m.value and "format's own" in m.value for m in at.markdown)


def test_typed_markup_and_special_strings_stay_text() -> None:
    at = run_page()
    at.sidebar.text_area(key=state.CF_USER).set_value("<script>alert(1)</script> <|im_end|>").run()
    assert not at.exception
    bodies = "".join(h.proto.body for h in at.html)
    assert "alert" in bodies  # the text is drawn ...
    assert "<script" not in bodies and "&lt;" in bodies  # ... and its markup escaped, pill by pill


def test_no_tool_call_and_no_reply_shows_the_reply_prompt() -> None:
    at = run_page()
    at.sidebar.toggle(key=state.CF_TOOL_ON).set_value(False).run()
    at.sidebar.text_area(key=state.CF_REPLY).set_value("").run()
    assert not at.exception
    frames = [df.value for df in at.dataframe]
    assert frames and all("framing (start, reply prompt)" in set(f["turn"]) or len(f) >= 2 for f in frames)


def test_empty_user_message_is_a_friendly_note() -> None:
    at = run_page()
    at.sidebar.text_area(key=state.CF_USER).set_value("  ").run()
    assert not at.exception
    assert any("Type a user message" in i.value for i in at.info)


def test_own_templates_render_with_their_source() -> None:
    """Qwen3's and Llama 3's own templates draw spans, each naming its file and sha256."""
    at = run_page()
    captions = [c.value for c in at.caption if md_escape("Rendered from the chat_template of") in c.value]
    assert len(captions) >= 2
    assert any(md_escape("qwen3_tokenizer_config.json (sha256 5a7303fc)") in c for c in captions)


def only_qwen3(monkeypatch, template: str) -> AppTest:
    """The page with only Qwen3's own card, its config replaced by one holding ``template``."""
    source = ct.TEMPLATES["qwen3_template"]
    monkeypatch.setitem(ct.TEMPLATES, "qwen3_template", replace(source, notes=f"test {template}"))
    monkeypatch.setattr(ct, "load_config", lambda _source: ct.TemplateConfig(template))
    monkeypatch.setattr(ct, "RENDER_TIMEOUT_S", 2.0)
    return open_page(PAGE, timeout=120, state={state.CF_FORMATS: ["qwen3_template"]})


def one_sentence(at: AppTest, kind: str) -> str:
    """The card's one message: an error (the template failed or was stopped) or a warning (the
    template refused the conversation: the model's own rule); never both, never two."""
    errors, warnings = [e.value for e in at.error], [w.value for w in at.warning]
    shown = errors if kind == "error" else warnings
    assert len(shown) == 1 and not (warnings if kind == "error" else errors), (errors, warnings)
    return shown[0]


@pytest.mark.parametrize(("template", "kind", "message"), [
    ("{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}", "error", "did not finish within 2 s"),
    ("{% for i in range(100000) %}{{ 'y' * 100 }}{% endfor %}", "error", "rendered more than 1,000,000 characters"),
    ("{{ raise_exception('System role not supported') }}", "warning", "refuses this conversation: System role not supported."),
    ("{{ cycler.__init__.__globals__ }}", "error", "sandbox forbids"),
])
def test_a_hostile_template_is_stopped_with_one_sentence(monkeypatch, template: str, kind: str, message: str) -> None:
    at = only_qwen3(monkeypatch, template)
    assert md_escape(message) in one_sentence(at, kind)
    assert not any(h.proto.body.startswith('<div class="tp-spans') for h in at.html)


def test_a_config_that_cannot_be_obtained_is_one_sentence(monkeypatch) -> None:
    source = ct.TEMPLATES["qwen3_template"]
    broken = replace(source, config=replace(source.config, sha256="0" * 64))
    monkeypatch.setitem(ct.TEMPLATES, "qwen3_template", broken)
    at = open_page(PAGE, timeout=120, state={state.CF_FORMATS: ["qwen3_template"]})
    errors = [e.value for e in at.error]
    assert len(errors) == 1 and md_escape("qwen3_tokenizer_config.json is not available") in errors[0], errors


# -- your own template: an uploaded tokenizer_config.json, a Hub repository's -----------------------

def with_config(name: str, data: bytes, tokenizer: str = "llama3") -> AppTest:
    at = open_page(PAGE, timeout=120, state={state.CF_FORMATS: [], state.CF_CONFIG_TOKENIZER: tokenizer})
    at.sidebar.file_uploader(key=state.CF_CONFIG_UPLOAD).set_value((name, data, "application/json")).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_an_uploaded_config_renders_with_the_chosen_tokenizer() -> None:
    config = Path(os.environ.get("PLAYGROUND_DATA_DIR", "")) / "tokenizers" / "llama3_1_tokenizer_config.json"
    if not config.is_file():
        pytest.skip("llama3_1_tokenizer_config.json is not in PLAYGROUND_DATA_DIR")
    at = with_config("my_config.json", config.read_bytes())
    assert f"#### {md_escape('my_config.json (uploaded)')}" in cards(at)
    spans = [h.proto.body for h in at.html if h.proto.body.startswith('<div class="tp-spans')]
    assert len(spans) == 1 and "tp-special" in spans[0]


@pytest.mark.parametrize(("data", "kind", "message"), [
    (b'{"bos_token": "<s>"}', "error", "has no chat template"),
    (b"{oops", "error", "is not JSON"),
    (b'{"chat_template": "{% for i in range(100000) %}{{ \'y\' * 100 }}{% endfor %}"}', "error", "more than 1,000,000 characters"),
    (b'{"chat_template": "{{ raise_exception(\'no tools here\') }}"}', "warning", "refuses this conversation: no tools here."),
])
def test_a_bad_or_hostile_uploaded_config_is_one_sentence(data: bytes, kind: str, message: str) -> None:
    at = with_config("evil.json", data)
    assert md_escape(message) in one_sentence(at, kind)


def test_a_hub_repository_brings_its_own_template(monkeypatch, tmp_path) -> None:
    """Fetched in the Playground's sidebar, the repository's tokenizer_config.json gives a card here."""
    from tests.hub_server import DATA, serve_hub

    if not (DATA / "qwen3_tokenizer_config.json").is_file():
        pytest.skip("the data folder is not in PLAYGROUND_DATA_DIR")
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path))
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    with serve_hub() as (url, _):
        monkeypatch.setenv("HF_ENDPOINT", url)
        at = AppTest.from_file(str(Path(PAGE).parents[1] / "app.py"), default_timeout=120)
        at.run()
        at.text_input(key="pg_hub_ref").input("acme/mbert").run()
    at.switch_page("pages/10_Chat_formats.py")
    at.session_state[state.CF_FORMATS] = []
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    titles = [c for c in cards(at) if md_escape("(its own template)") in c]
    assert len(titles) == 1 and md_escape("acme/mbert@") in titles[0]
    assert any(h.proto.body.startswith('<div class="tp-spans') for h in at.html)


def test_a_second_visitor_gets_the_same_cards_without_drawing_their_spans_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 21 item 9: every view drew the ten cards' spans anew (about 0.15 s of a warm view's CPU);
    a card of a built-in format or registry template is now made once per process and conversation."""
    from ui.chat import views

    drawn: list[str] = []
    render = views.render_spans

    def counting(*args, **kwargs):
        drawn.append(args[0])
        return render(*args, **kwargs)

    monkeypatch.setattr(views, "render_spans", counting)
    views.drawn_cards.clear()
    first = run_page()
    made = len(drawn)
    assert made >= 5  # the cards whose tokenizer is here
    second = run_page()  # a new session: the same default conversation
    assert len(drawn) == made

    def shown(at: AppTest) -> list[str]:
        return [h.proto.body for h in at.html if h.proto.body.startswith('<div class="tp-spans')]

    assert shown(second) == shown(first) and cards(second) == cards(first)
    assert [m.value for m in second.markdown] == [m.value for m in first.markdown]
    assert [d.value.to_dict() for d in second.dataframe] == [d.value.to_dict() for d in first.dataframe]
    at = run_page()
    at.toggle(key=state.CF_SHOW_WHITESPACE).set_value(not at.toggle(key=state.CF_SHOW_WHITESPACE).value).run()
    assert len(drawn) == 2 * made  # whitespace shown is another drawing


def test_a_first_visit_leaves_the_heavy_tokenizers_to_a_click(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 21 item 9: a first visit loaded every card's tokenizer, Gemma 3's 33 MB (1.4-1.9 s of CPU)
    and DeepSeek V3's 7.8 MB (0.6 s) too, although Gemma's template refuses the default conversation.
    Now a refusing template loads nothing, and a heavy tokenizer waits for its card's button."""
    from ui import cache
    from ui.chat import views

    store = cache.TokenizerStore(cache.load_from_registry)  # a fresh process's: nothing loaded yet
    monkeypatch.setattr(cache, "tokenizer_store", lambda: store)
    loaded: list[str] = []
    monkeypatch.setattr(store, "_loader", lambda key, progress: loaded.append(key) or cache.load_from_registry(key, progress))
    assert views.heavy_file_bytes("gemma3") > views.HEAVY_BYTES and views.heavy_file_bytes("deepseek_v3")
    assert not views.heavy_file_bytes("qwen")
    at = run_page()  # the default conversation has a tool call: Gemma's template refuses it
    assert "gemma3" not in loaded and "deepseek_v3" not in loaded
    # the template's own rule, a warning that says what renders instead (Gemma takes no tool turn)
    (gemma,) = [w.value for w in at.warning if "Gemma 3" in w.value]
    assert gemma == md_escape("Gemma 3 (its own template) refuses this conversation: Conversation roles must "
                              f"alternate user/assistant/user/assistant/... {views.TOOLS_HINT}") and not at.error
    button = at.button(key="cf_load_deepseek_v3_template")
    button.click()
    rerun(at)
    assert loaded.count("deepseek_v3") == 1
    deepseek = cards(at).index(f"#### {md_escape(ct.TEMPLATES['deepseek_v3_template'].title)}")
    assert not [b for b in at.button if b.key == "cf_load_deepseek_v3_template"]
    assert "DeepSeek" in " ".join(m.value for m in at.markdown if "tokens**" in m.value) and deepseek >= 0
    at.sidebar.toggle(key=state.CF_TOOL_ON).set_value(False)
    rerun(at)  # now Gemma's template renders: its button
    assert [b.key for b in at.button if str(b.key).startswith("cf_load_")] == ["cf_load_gemma3_template"]
    assert "gemma3" not in loaded


def test_a_refusal_is_one_escaped_sentence(monkeypatch) -> None:
    from ui.chat import views

    shown: list[str] = []
    monkeypatch.setattr(views.st, "warning", lambda body, **_: shown.append(body))
    views._refused("Gemma 3", ValueError("roles must alternate user/assistant/..."))
    views._refused("Llama", ValueError("no *system* turn"))
    assert shown == [  # escaped: Markdown in a message is shown as text; one full stop, never "...."
        md_escape("Gemma 3 refuses this conversation: roles must alternate user/assistant/..."),
        md_escape("Llama refuses this conversation: no *system* turn."),
    ]


def test_a_refusal_says_what_renders_without_the_tool_turns_only_when_it_does(monkeypatch) -> None:
    from ui.chat import views

    shown: list[str] = []
    monkeypatch.setattr(views.st, "warning", lambda body, **_: shown.append(body))
    tools = cf.conversation(system="Be brief.", user="Hi", reply="", tool=("get_time", "{}", '{"time": "noon"}'))
    plain = cf.conversation(system="Be brief.", user="Hi", reply="", tool=None)
    seen: list[tuple] = []

    def takes_no_tools(messages):
        seen.append(messages)
        if any(m.role == "tool" or m.tool_name for m in messages):
            raise ValueError("no tools")
        return "ok"

    def takes_nothing(messages):
        raise ValueError("never")

    views._refused("A", ValueError("no tools"), tools, takes_no_tools)
    views._refused("B", ValueError("no tools"), tools, takes_nothing)
    views._refused("C", ValueError("no system"), plain, takes_no_tools)  # no tool turn to drop: not tried
    assert shown[0].endswith(md_escape(views.TOOLS_HINT))
    assert md_escape(views.TOOLS_HINT) not in shown[1] + shown[2]
    assert seen == [tuple(plain)]
