"""ui.tax.views.measure: the main table kept once per process by its inputs (issue 21, item 9)."""

from __future__ import annotations

import pytest

from core.tax import language_tax as lt
from core.tax.parallel_corpus import parallel_from_texts
from ui.tax import views
from ui.tax.views import Choice


class Chars:
    name, lossless = "chars", True

    def count(self, text: str) -> int:
        return len(text)


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> list:
    memo: dict = {}
    monkeypatch.setattr(views, "counts_memo", lambda: memo)
    monkeypatch.setattr(views, "_memo_key", lambda key: f"memo:{key}")
    cache = views.tax_tables.__wrapped__()  # a fresh cache that every call below shares
    monkeypatch.setattr(views, "tax_tables", lambda: cache)
    calls: list = []
    made = lt.language_tax
    monkeypatch.setattr(lt, "language_tax", lambda *a, **k: calls.append(k["languages"]) or made(*a, **k))
    return calls


def test_a_second_view_reuses_the_table_and_a_new_choice_measures_anew(counted: list) -> None:
    corpus = parallel_from_texts({"en": "ab", "xx": "abcd", "yy": "abc"})
    choice = Choice(corpus, "en", ("en", "xx"), ("c",))
    first = views.measure(choice, {"c": Chars()})
    again = views.measure(choice, {"c": Chars()})
    assert again is first and len(counted) == 1
    assert first["tokenizer"].tolist() == ["c", "c"] and first["premium"].tolist() == [1.0, 2.0]
    other = views.measure(Choice(corpus, "en", ("en", "yy"), ("c",)), {"c": Chars()})
    assert len(counted) == 2 and other["premium"].tolist() == [1.0, 1.5]
    assert views.measure(choice, {"c": Chars()}, recount=True).equals(first) and len(counted) == 3


def test_a_tokenizer_of_another_name_is_another_table(counted: list) -> None:
    corpus = parallel_from_texts({"en": "ab", "xx": "abcd"})
    choice = Choice(corpus, "en", ("en", "xx"), ("c",))
    views.measure(choice, {"c": Chars()})
    renamed = Chars()
    renamed.name = "mine.tiktoken"
    assert views.measure(choice, {"c": renamed})["tokenizer_name"].tolist() == ["mine.tiktoken"] * 2
    assert len(counted) == 2


def test_what_is_derived_from_a_kept_table_is_made_once_and_never_for_another_table(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    cache = views.derived_values.__wrapped__()
    monkeypatch.setattr(views, "derived_values", lambda: cache)
    corpus = parallel_from_texts({"en": "ab", "xx": "abcd"})
    table = lt.language_tax(corpus, {"c": Chars()}, base="en")
    made: list = []

    def wide(frame):
        made.append(frame)
        return views.tf.wide_table(frame)

    first = views.derived(table, "wide", wide)
    assert views.derived(table, "wide", wide) is first and made == [table]
    assert views.derived(table, "csv", views.export.frame_csv).startswith("language,")
    other = table.copy()
    assert views.derived(other, "wide", wide).equals(first) and made == [table, other]
    assert first.columns.tolist()[:4] == ["language", "script", "bytes ×", "characters ×"]
