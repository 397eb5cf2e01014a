"""Unicode normalization forms side by side, with what each one changed, piece by piece.

NFC composes (e + ◌́ → é), NFD decomposes (é → e + ◌́), NFKC and NFKD also fold compatibility
characters into plain ones (ﬁ → fi, ① → 1, Ｃ → C, ² → 2), and casefold is the lower-casing meant
for comparing text (ß → ss, İ → i̇). Many tokenizers apply one of them before anything else
(``core.text.tokenizer_normalizers``), so the model never sees the text as it was typed.

``form_view`` cuts the text into grapheme clusters, normalizes each one, and keeps the clusters
that changed apart from runs that did not: that is what the page highlights. Subtle: normalizing
cluster by cluster gives the same string as normalizing the whole text for every case Unicode's
stability rules allow; should it not, the view says "changed" over the whole piece rather than lie.

What this module does not do: read a tokenizer's normalizer (``core.text.tokenizer_normalizers``) or draw.
"""

from __future__ import annotations

import difflib
import unicodedata
from dataclasses import dataclass

import regex

from core.text.textio import without_surrogates

FORMS: tuple[str, ...] = ("NFC", "NFD", "NFKC", "NFKD", "casefold")
FORM_NOTES = {
    "NFC": "canonical composition: e + ◌́ becomes é; what most text on the web already is",
    "NFD": "canonical decomposition: é becomes e + ◌́ (two code points, three bytes)",
    "NFKC": "compatibility composition: also folds look-alike variants (ﬁ → fi, ① → 1, Ｃ → C)",
    "NFKD": "compatibility decomposition: NFKC's folding, with accents split off",
    "casefold": "lower-casing for comparison: ß → ss, ﬁ → fi, Σ → σ; not a normalization form, often used as one",
}
# Clusters drawn in a view; past this the counts still cover the whole text.
VIEW_LIMIT = 3000

_GRAPHEME = regex.compile(r"\X")


def apply(form: str, text: str) -> str:
    """``text`` in normalization ``form`` (one of ``FORMS``).

    >>> apply("NFD", "é") == "e\\u0301", apply("casefold", "Straße")
    (True, 'strasse')
    """
    if form == "casefold":
        return text.casefold()
    if form not in FORMS:
        raise ValueError(f"unknown form {form!r}; pick one of {', '.join(FORMS)}")
    return unicodedata.normalize(form, text)


@dataclass(frozen=True)
class Piece:
    """A stretch of the original text and what it became; ``changed`` when they differ."""

    original: str
    result: str

    @property
    def changed(self) -> bool:
        return self.original != self.result


@dataclass(frozen=True)
class FormView:
    """One normalization form of a text: exact sizes for all of it, pieces for its first clusters."""

    form: str
    code_points: int
    utf8_bytes: int
    changed: bool  # anywhere in the whole text
    pieces: tuple[Piece, ...]  # the first VIEW_LIMIT clusters, changed ones apart
    shown_chars: int  # code points of the original text the pieces cover

    @property
    def changed_pieces(self) -> int:
        return sum(piece.changed for piece in self.pieces)


def form_view(text: str, form: str, *, limit: int = VIEW_LIMIT) -> FormView:
    """``text`` under ``form``: sizes of the whole result and the pieces of its first ``limit`` clusters.

    >>> view = form_view("Café ﬁ", "NFKC")
    >>> [(p.original, p.result) for p in view.pieces if p.changed]
    [('ﬁ', 'fi')]
    """
    text = without_surrogates(text)
    whole = apply(form, text)
    shown = _head(text, limit)
    return FormView(
        form, len(whole), len(whole.encode()), whole != text, tuple(_pieces(shown, form)), len(shown)
    )


def _head(text: str, limit: int) -> str:
    """The first ``limit`` grapheme clusters of ``text``."""
    if len(text) <= limit:
        return text
    end = 0
    for count, match in enumerate(_GRAPHEME.finditer(text)):
        if count == limit:
            break
        end = match.end()
    return text[:end]


def _pieces(text: str, form: str) -> list[Piece]:
    pieces: list[Piece] = []
    same_from = 0  # start of the current run of unchanged clusters
    for match in _GRAPHEME.finditer(text):
        original = match.group()
        result = apply(form, original)
        if result != original:
            if match.start() > same_from:
                pieces.append(Piece(text[same_from : match.start()], text[same_from : match.start()]))
            pieces.append(Piece(original, result))
            same_from = match.end()
    if same_from < len(text):
        pieces.append(Piece(text[same_from:], text[same_from:]))
    if "".join(piece.result for piece in pieces) != apply(form, text):
        return [Piece(text, apply(form, text))]  # a change that crosses clusters: one honest piece
    return pieces


def diff_pieces(original: str, result: str) -> list[Piece]:
    """Pieces turning ``original`` into ``result`` by a character diff, for changes that are not
    cluster by cluster (a tokenizer that drops control characters or collapses spaces).

    Subtle: ``autojunk`` is off, or difflib would ignore frequent characters (spaces) in long texts.

    >>> [(p.original, p.result) for p in diff_pieces("a\\x07b  c", "ab c") if p.changed]
    [('\\x07', ''), (' ', '')]
    """
    matcher = difflib.SequenceMatcher(None, original, result, autojunk=False)
    return [Piece(original[i1:i2], result[j1:j2]) for _, i1, i2, j1, j2 in matcher.get_opcodes()]


@dataclass(frozen=True)
class ChangeRow:
    """A distinct grapheme cluster that some form changes, with its result under each form."""

    original: str
    results: dict[str, str]  # form -> result
    count: int  # occurrences in the text


def changed_clusters(text: str, *, limit: int = 200) -> list[ChangeRow]:
    """Distinct clusters of ``text`` that at least one form changes, most frequent first.

    Subtle: ASCII letters change only under casefold, and a text full of capitals would fill the
    table with A → a; they come after every non-ASCII cluster.

    >>> [len(row.original) for row in changed_clusters("é e\\u0301 A")]  # é composed, é decomposed, A
    [1, 2, 1]
    """
    text = without_surrogates(text)
    seen: dict[str, int] = {}
    for cluster in _GRAPHEME.findall(text) if not text.isascii() else text:
        seen[cluster] = seen.get(cluster, 0) + 1
    rows = []
    for cluster, count in seen.items():
        results = {form: apply(form, cluster) for form in FORMS}
        if any(result != cluster for result in results.values()):
            rows.append(ChangeRow(cluster, results, count))
    rows.sort(key=lambda row: (row.original.isascii(), -row.count))
    return rows[:limit]
