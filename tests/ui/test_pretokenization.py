"""What the Pre-tokenization page says about the patterns is what the patterns do; rows escape labels."""

from __future__ import annotations

from core.text.patterns import NAMED_PATTERNS
from core.text.pretokenize import chunks
from ui import compare
from ui.pretokenization import examples


def cut(name: str, text: str) -> list[str]:
    return chunks(text, NAMED_PATTERNS[name])


def test_every_named_pattern_has_a_note() -> None:
    assert set(examples.PATTERN_NOTES) == set(NAMED_PATTERNS)


def test_contractions_note() -> None:
    text = examples.CONTRACTIONS_TEXT
    assert "IT'S" in text and "they'll" in text and "We’re" in text
    gpt2 = cut("GPT-2", text)
    assert gpt2[gpt2.index(" IT") : gpt2.index(" IT") + 3] == [" IT", "'", "S"]
    for name in ("cl100k_base", "Llama 3", "Qwen"):
        assert "'S" in cut(name, text) and "'LL" in cut(name, text)
    assert " they'll" in cut("o200k_base", text) and " IT'S" in cut("o200k_base", text)
    # the curly apostrophe is punctuation to all of them: o200k does not keep "We’re" whole
    assert cut("o200k_base", " We’re") == [" We", "’re"] and cut("o200k_base", " we're") == [" we're"]
    assert cut("GPT-2", " We’re") == [" We", "’", "re"]


def test_spaces_note() -> None:
    text = examples.SPACES_TEXT
    for name in ("GPT-2", "cl100k_base", "o200k_base", "Llama 3"):
        pieces = cut(name, text)
        assert pieces[:6] == ["one", " two", " ", " three", "  ", " four"]
    assert "\n   " in cut("GPT-2", text)  # the line break glued to the indentation
    for name in ("cl100k_base", "o200k_base", "Llama 3"):
        assert "\n" in cut(name, text) and "\ttabbed" in cut(name, text)


def test_digits_note() -> None:
    assert cut("GPT-2", "2026 1234567") == ["2026", " 1234567"]
    for name in ("cl100k_base", "o200k_base", "Llama 3"):
        assert cut(name, "2026") == ["202", "6"]
    assert cut("Qwen", "2026") == ["2", "0", "2", "6"]
    assert "from the left" in examples.DIGITS_NOTE and "2026 → 202 + 6" in examples.DIGITS_NOTE


def test_rows_escape_labels_and_keep_bodies() -> None:
    html = compare.rows_html([compare.Row("<script>x</script>", "a & b", "<span>body</span>", muted=True)])
    assert "<script>" not in html and "&lt;script&gt;" in html and "a &amp; b" in html
    assert "<span>body</span>" in html and "tv-muted" in html
    assert compare.message_html("<b>") == '<div class="tv-message">&lt;b&gt;</div>'
