"""The patched token box (assets/span_box.js) in chromium, without a server: after every run the box
on screen is exactly the markup the server sent, and a small edit keeps the pills it did not change."""

from __future__ import annotations

import re
import zlib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.types import Token
from ui.scripts import script
from ui.spans import render_spans

# Loads the component's module into a blank page and keeps a runner: window.__run(html) mounts the
# box (or patches it) the way Streamlit calls a components-v2 element, with the same parent each run.
SETUP = """async (source) => {
  const module = await import("data:text/javascript;charset=utf-8," + encodeURIComponent(source));
  let parent = null;
  window.__reset = () => { parent = document.createElement("div"); document.body.replaceChildren(parent); };
  window.__run = (html, head = null, foot = null) => module.default({ parentElement: parent, data: { html, head, foot } });
  window.__box = () => parent.querySelector(":scope > .tp-box > .tp-spans");
}"""
RESET = "() => window.__reset()"  # a new element: what an earlier test's page scripts marked is gone

# After one run: is the box on screen node for node the markup sent (attribute order aside)?
SAME = """(html) => { window.__run(html); const t = document.createElement("template");
  t.innerHTML = html; const box = window.__box();
  return box !== null && box.isEqualNode(t.content.firstElementChild); }"""

PIECES = re.compile(r"\w+|\s+|[^\w\s]", re.UNICODE)


def tokens_of(text: str) -> list[Token]:
    """Words, runs of spaces and single signs as tokens; a character outside the BMP (an emoji) as two
    byte tokens over the same character, as byte-level tokenizers split it (a group in the box)."""
    out = []
    for match in PIECES.finditer(text):
        piece, start, end = match.group(), match.start(), match.end()
        data = piece.encode("utf-8")
        if len(piece) == 1 and ord(piece) > 0xFFFF:
            out += [Token(zlib.crc32(data[:2]) % 5000, data[:2], start, end),
                    Token(zlib.crc32(data[2:]) % 5000, data[2:], start, end)]
        else:
            out.append(Token(zlib.crc32(data) % 50_000, data, start, end))
    return out


def box(text: str, **options: object) -> str:
    return render_spans(text, tokens_of(text), **options)


@pytest.fixture(scope="module")
def bare(browser: object) -> object:
    context = browser.new_context(viewport={"width": 600, "height": 800})
    page = context.new_page()
    page.evaluate(SETUP, script("span_box.js"))  # as the component sends it
    yield page
    context.close()


TEXT = "Tokenizers cut text into pieces. How many r's are in strawberry? 👩‍💻 2026\n" * 8


def test_each_run_leaves_exactly_the_markup_sent(bare) -> None:
    bare.evaluate(RESET)
    runs = [
        box(TEXT), box("x" + TEXT), box("x" + TEXT[:300] + "y" + TEXT[300:]), box(TEXT[:-40]),
        box(TEXT, show_whitespace=True), box(TEXT, limit=20, more="pg_more_a"), box(TEXT, limit=40, more="pg_more_a"),
        box(""), box("🙂"), box(TEXT), box(TEXT),
    ]
    for html in runs:
        assert bare.evaluate(SAME, html)


def test_an_edit_keeps_the_pills_it_did_not_change(bare) -> None:
    bare.evaluate(RESET)
    bare.evaluate("(html) => window.__run(html)", box(TEXT))
    kept = bare.evaluate("""(html) => { const before = new Set(window.__box().querySelectorAll("b"));
      const marked = [...before][40]; marked.classList.add("tp-caret");
      window.__run(html);
      const after = [...window.__box().querySelectorAll("b")];
      return [after.filter(b => before.has(b)).length, after.length, marked.isConnected && marked.classList.contains("tp-caret")]; }""",
                       box("x" + TEXT))
    same, total, mark_kept = kept
    assert total > 100 and same >= total - 2  # the first word changed, every other pill stayed
    assert mark_kept  # a page script's mark on an unchanged pill survives the run


def test_the_box_keeps_its_own_classes_and_answers_a_show_more(bare) -> None:
    bare.evaluate(RESET)
    bare.evaluate("(html) => window.__run(html)", box(TEXT, limit=20, more="pg_more_a"))
    state = bare.evaluate("""(html) => { const b = window.__box(); b.classList.add("tp-scrolling");
      b.dataset.asked = "1"; window.__run(html); const a = window.__box();
      return [a === b, a.classList.contains("tp-scrolling"), "asked" in a.dataset]; }""",
                          box(TEXT, limit=40, more="pg_more_a"))
    assert state == [True, True, False]


HEAD = {"name": "<b>my [vocab](x).txt", "count": "12 tokens", "added": " + 1 added by the tokenizer (<s>)",
        "facts": "WordPiece · 9 vocab", "help": "Where the file comes from", "lossy": "",
        "details": ["source: <img src=x onerror=alert(1)>", "licence: MIT"]}
FOOT = {"line": "1.2% of GPT-2's 1,024-token context", "help": "Context window: <i>GPT-2</i> paper."}
CARD = """() => { const p = document.body.firstElementChild, q = (s) => p.querySelector(s);
  return {name: q(".tp-card-name").textContent, count: q(".tp-card-count").textContent,
    facts: q(".tp-card-facts").textContent, title: q(".tp-card-facts").title,
    details: [...q(".tp-card-details").children].map((e) => e.textContent),
    detailsShown: !q(".tp-card-details").hidden, lossy: q(".tp-card-lossy").hidden ? null : q(".tp-card-lossy").textContent,
    foot: q(".tp-card-foot").hidden ? null : q(".tp-card-foot span").textContent, footHelp: q(".tp-card-help").title,
    elements: p.querySelectorAll(".tp-card-head *:not(h4, div, span, strong, button, svg, path), .tp-card-details *:not(p), .tp-card-foot *:not(span)").length,
    order: [...p.children].map((e) => e.className)}; }"""


def test_the_head_and_foot_are_text_written_in_place(bare) -> None:
    """The column's head (name, count, facts, source details, lossy flag) and its context line come
    with the spans and are drawn as text: markup in a name stays text, and a run that changes the
    count writes that text and keeps the rest (an opened source panel stays open)."""
    bare.evaluate(RESET)
    bare.evaluate("([html, head, foot]) => window.__run(html, head, foot)", [box(TEXT), HEAD, FOOT])
    card = bare.evaluate(CARD)
    assert card["order"] == ["tp-card-head", "tp-card-details", "tp-box", "tp-card-foot"]
    assert card["name"] == HEAD["name"] and card["elements"] == 0  # no <b>, <img> or <i> made of the text
    assert card["count"] == "12 tokens + 1 added by the tokenizer (<s>)"
    assert card["facts"] == "WordPiece · 9 vocab" and card["title"] == HEAD["help"]
    assert card["details"] == HEAD["details"] and not card["detailsShown"] and card["lossy"] is None
    assert card["foot"] == FOOT["line"] and card["footHelp"] == FOOT["help"]
    bare.click(".tp-card-facts")  # opens where the file comes from, with no rerun
    assert bare.evaluate(CARD)["detailsShown"]
    name = bare.evaluate("() => document.querySelector('.tp-card-name').firstChild")
    kept = bare.evaluate("""([html, head]) => { const name = document.querySelector('.tp-card-name').firstChild;
      const pill = window.__box().querySelector('b'); window.__run(html, head, null);
      return [name === document.querySelector('.tp-card-name').firstChild, pill.isConnected]; }""",
                         [box("x" + TEXT), HEAD | {"count": "13 tokens", "lossy": "Lossy: <u>x</u>"}])
    card = bare.evaluate(CARD)
    assert kept == [True, False] and name is not None  # the name's text node stayed; the first pill changed
    assert card["count"].startswith("13 tokens") and card["lossy"] == "Lossy: <u>x</u>" and card["elements"] == 0
    assert card["detailsShown"] and card["foot"] is None
    bare.click(".tp-card-facts")
    assert not bare.evaluate(CARD)["detailsShown"]


ALPHABET = st.sampled_from(["a", "b", "é", " ", "  ", "\n", ".", "🙂", "\u200d", "2026", "strawberry", "—"])


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(texts=st.lists(st.lists(ALPHABET, max_size=30).map("".join), min_size=1, max_size=6),
       whitespace=st.booleans())
def test_any_sequence_of_texts_ends_as_the_last_markup(bare, texts: list[str], whitespace: bool) -> None:
    bare.evaluate(RESET)
    for text in texts:
        assert bare.evaluate(SAME, box(text, show_whitespace=whitespace))
