"""ui.tax.research.segment_premiums: the Distribution tab's frame made once per process (issue 21, item 9)."""

from __future__ import annotations

import pytest

from core.tax import tax_stats
from core.tax.language_tax import language_tax
from core.tax.parallel_corpus import parallel_from_texts
from ui.tax import research
from ui.tax.views import Choice


class Chars:
    name, lossless = "chars", True

    def count(self, text: str) -> int:
        return len(text)


def test_a_second_view_reuses_the_premiums_and_a_new_choice_counts_anew(monkeypatch: pytest.MonkeyPatch) -> None:
    corpus = parallel_from_texts({"en": "ab", "xx": "abcd", "yy": "abc"})
    memo: dict = {}
    language_tax(corpus, {"c": Chars()}, base="en", memo=memo)
    monkeypatch.setattr(research, "counts_memo", lambda: memo)
    monkeypatch.setattr(research, "premium_frames", research.premium_frames.__wrapped__)  # a fresh cache ...
    cache = research.premium_frames()
    monkeypatch.setattr(research, "premium_frames", lambda: cache)  # ... that every call shares
    calls = []
    made = tax_stats.segment_premiums
    monkeypatch.setattr(tax_stats, "segment_premiums", lambda *a, **k: calls.append(k["languages"]) or made(*a, **k))

    choice = Choice(corpus, "en", ("xx",), ("c",))
    first = research.segment_premiums(choice, {"c": "picker_c"}, {"picker_c": Chars()})
    again = research.segment_premiums(choice, {"c": "picker_c"}, {"picker_c": Chars()})
    assert again is first and len(calls) == 1
    assert first["tokenizer"].tolist() == ["picker_c"] and first["premium"].tolist() == [2.0]
    other = research.segment_premiums(Choice(corpus, "en", ("xx", "yy"), ("c",)), {"c": "picker_c"}, {"picker_c": Chars()})
    assert len(calls) == 2 and other["premium"].tolist() == [2.0, 1.5]
