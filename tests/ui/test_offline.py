"""The offline page as a string: self-contained (no address it would fetch), escaped, scripts inline."""

from __future__ import annotations

import re
import urllib.parse

import pytest

from core.measures.metrics import text_counts
from core.types import Token
from ui.offline import Column, counts_html, inline_script, page_html
from ui.spans import render_spans

EVIL = '<script>alert(1)</script> "><img src=x onerror=alert(2)> &amp;'
LINK = "http://room:8080/?page=playground&text=" + urllib.parse.quote(EVIL)


def char_tokens(text: str) -> list[Token]:
    return [Token(100 + i, ch.encode(), i, i + 1) for i, ch in enumerate(text)]


def evil_page() -> str:
    tokens = char_tokens(EVIL)
    column = Column(name=EVIL, facts=f"BPE · source: {EVIL}", headline="42 tokens", spans=render_spans(EVIL, tokens),
                    lossy=EVIL)
    counts = {EVIL: text_counts(EVIL, tokens)}
    return page_html(text=EVIL, columns=[column], counts=counts, link=LINK)


def test_user_text_is_escaped_everywhere() -> None:
    page = evil_page()
    assert "<script>alert" not in page and "<img" not in page
    assert page.count("&lt;script&gt;alert(1)&lt;/script&gt;") >= 5  # text, heading, facts, lossy, table


def test_the_page_fetches_nothing() -> None:
    page = evil_page()
    # only the link back to the live page is an address; nothing is loaded from one
    assert not re.search(r"""<[^<>]*\b(src|srcset)\s*=|<link\b|@import|url\(\s*['"]?(https?:|//)""", page, re.I)
    assert re.findall(r"https?://[^\s\"<]+", page) == [LINK.replace("&", "&amp;")] * 2


def test_both_span_scripts_are_inline_modules_that_install_themselves() -> None:
    page = evil_page()
    scripts = re.findall(r'<script type="module">\n(.*?)\n</script>', page, re.S)
    assert len(scripts) == 2
    assert all(s.count("const install = function") == 1 and s.endswith("install();") for s in scripts)
    assert "window.tpFacts = tokenFacts" in scripts[0] and "__tpPinInstalled" in scripts[1]
    assert "export default" not in page


def test_a_script_that_would_break_out_is_refused() -> None:
    with pytest.raises(ValueError, match="exactly one"):
        inline_script("const a = 1;")
    with pytest.raises(ValueError, match="cannot be inlined"):
        inline_script("export default function () { '</script>' }")


def test_counts_are_formatted_like_the_page() -> None:
    text = "hello world, hello"
    table = counts_html({"A": text_counts(text, char_tokens(text))})
    assert "<td>18</td>" in table and "<td>1.00</td>" in table and "tokens / word" in table
    assert counts_html({}) == ""
