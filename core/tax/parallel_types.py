"""The types of parallel corpora: a language, an aligned corpus, a catalog entry, and script names.

Kept apart from ``core.tax.parallel_corpus`` (the catalog and its loaders) so the loaders of the
canonical files (``core.tax.parallel_loaders``) and uploads (``core.tax.parallel_upload``) can build corpora
without importing the catalog that imports them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

# ISO 15924 codes of the scripts the corpora use, with their English names.
SCRIPT_NAMES: Mapping[str, str] = {
    "Adlm": "Adlam", "Arab": "Arabic", "Armn": "Armenian", "Beng": "Bengali", "Cakm": "Chakma",
    "Cans": "Canadian Syllabics", "Cher": "Cherokee", "Cyrl": "Cyrillic", "Deva": "Devanagari",
    "Ethi": "Ethiopic", "Geor": "Georgian", "Gran": "Grantha", "Grek": "Greek", "Gujr": "Gujarati",
    "Guru": "Gurmukhi", "Hang": "Hangul", "Hani": "Han", "Hans": "Han (Simplified)",
    "Hant": "Han (Traditional)", "Hebr": "Hebrew", "Java": "Javanese", "Jpan": "Japanese (kanji + kana)",
    "Khmr": "Khmer", "Knda": "Kannada", "Kore": "Korean (Hangul + Hanja)", "Lana": "Tai Tham", "Laoo": "Lao",
    "Latn": "Latin", "Mlym": "Malayalam", "Mymr": "Myanmar", "Sinh": "Sinhala", "Syrc": "Syriac",
    "Taml": "Tamil", "Tavt": "Tai Viet", "Telu": "Telugu", "Tfng": "Tifinagh", "Thaa": "Thaana",
    "Thai": "Thai", "Tibt": "Tibetan", "Vaii": "Vai", "Yiii": "Yi",
}




@dataclass(frozen=True)
class ParallelLanguage:
    """One language of a parallel corpus. ``code`` is the corpus's own key ("en" in the sample and
    PUD, "eng" in the UDHR); ``script`` an ISO 15924 code; ``direction`` "ltr" or "rtl"."""

    code: str
    name: str
    bcp47: str
    script: str
    direction: str
    provenance: str = ""

    @property
    def script_name(self) -> str:
        return SCRIPT_NAMES.get(self.script, self.script)


@dataclass(frozen=True, eq=False)
class ParallelCorpus:
    """Aligned segments: ``segments[code][segment id]`` is one language's text of that segment.

    ``segment_ids`` is the corpus order; a language may lack some segments (a UDHR translation
    without Articles 5-11). ``fingerprint`` identifies the content (sha256 of the source), so a cache
    keyed by it never mixes two versions of a corpus.

    >>> from core.tax.parallel_corpus import parallel_from_texts
    >>> corpus = parallel_from_texts({"en": "Hello.", "es": "Hola."})
    >>> corpus.shared(["en", "es"]), corpus.text("es")
    (('1',), 'Hola.')
    """

    key: str
    title: str
    unit: str  # what one segment is: "sentence", "article", "text"
    languages: tuple[ParallelLanguage, ...]
    segment_ids: tuple[str, ...]
    segments: Mapping[str, Mapping[str, str]]
    licence: str
    source: str
    notice: str = ""
    default_base: str = "en"
    fingerprint: str = ""
    _by_code: dict[str, ParallelLanguage] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_code", {language.code: language for language in self.languages})
        if len(self._by_code) != len(self.languages):
            raise ValueError("language codes of a parallel corpus must be unique")

    def codes(self) -> tuple[str, ...]:
        return tuple(language.code for language in self.languages)

    def language(self, code: str) -> ParallelLanguage:
        """The language ``code``, or a ``ValueError`` naming the corpus."""
        try:
            return self._by_code[code]
        except KeyError:
            raise ValueError(f"{self.title} has no language {code!r}") from None

    def has(self, code: str) -> bool:
        return code in self._by_code

    def shared(self, codes: Iterable[str]) -> tuple[str, ...]:
        """The segment ids every language in ``codes`` has, in corpus order."""
        texts = [self.segments[self.language(code).code] for code in codes]
        return tuple(i for i in self.segment_ids if all(i in t for t in texts))

    def text(self, code: str, ids: Sequence[str] | None = None, *, separator: str = "\n") -> str:
        """The language's segments (``ids``, default all it has) joined by ``separator``."""
        texts = self.segments[self.language(code).code]
        chosen = self.segment_ids if ids is None else ids
        return separator.join(texts[i] for i in chosen if i in texts)


@dataclass(frozen=True)
class ParallelEntry:
    """A parallel corpus on offer, before it is loaded."""

    key: str
    title: str
    unit: str
    languages: str  # "42 languages, 22 scripts": a description, the count is known once loaded
    licence: str
    source: str
    notice: str
    builtin: bool
