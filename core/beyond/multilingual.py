"""The same sentences in several languages, for comparing how many units each language costs.

Two sources: the built-in sample ``data/samples/multilingual_mix.txt`` (one sentence in 17
languages, always there) and, when the data folder is present, the Parallel Universal Dependencies
treebanks (the same 1,000 news and Wikipedia sentences in 21 languages, line-aligned; CC BY-SA,
see ``core.corpora.PUD_NOTICE``). For PUD the first ``n`` sentences of each language are the
measured texts and the rest can train a model (``pud_training_text``), so nothing measured was seen
in training. What this module does not do: tokenize or draw.

>>> [t.code for t in builtin_texts()][:3]
['en', 'es', 'fr']
"""

from __future__ import annotations

from dataclasses import dataclass

import regex

from core import corpora
from core.fetch.sources import SourceUnavailable

MULTILINGUAL_SAMPLE = corpora.SAMPLES_DIR / "multilingual_mix.txt"
PUD_MEASURED = 100  # sentences per language that are measured, never trained on
# The built-in sample's line labels, as written there, with a BCP-47 tag and an English name.
_BUILTIN_LABELS = {
    "English": ("en", "English"), "Español": ("es", "Spanish"), "Français": ("fr", "French"),
    "Deutsch": ("de", "German"), "Português": ("pt", "Portuguese"), "Русский": ("ru", "Russian"),
    "Ελληνικά": ("el", "Greek"), "Türkçe": ("tr", "Turkish"), "Polski": ("pl", "Polish"),
    "العربية": ("ar", "Arabic"), "עברית": ("he", "Hebrew"), "हिन्दी": ("hi", "Hindi"),
    "ไทย": ("th", "Thai"), "中文": ("zh", "Chinese"), "日本語": ("ja", "Japanese"),
    "한국어": ("ko", "Korean"), "Tiếng Việt": ("vi", "Vietnamese"),
}
_LABELLED = regex.compile(r"^(?P<label>[^:：\n]+?)\s*[:：]\s*(?P<text>.+)$", regex.MULTILINE)


@dataclass(frozen=True)
class ParallelText:
    """One language's version of the shared text."""

    code: str  # BCP-47
    name: str  # English name of the language
    text: str


def builtin_texts() -> list[ParallelText]:
    """The built-in sentence in each of its 17 languages, in the sample's order (label removed)."""
    found = []
    for match in _LABELLED.finditer(MULTILINGUAL_SAMPLE.read_text(encoding="utf-8")):
        label = _BUILTIN_LABELS.get(match["label"])
        if label is not None:
            found.append(ParallelText(label[0], label[1], match["text"].strip()))
    return found


def pud_entries() -> list[corpora.CorpusEntry]:
    """The catalog's PUD entries, one per language."""
    return [item for item in corpora.catalog() if item.key.startswith("pud:")]


def pud_available() -> bool:
    """Whether the PUD files can be read (the data folder is there), without raising."""
    try:
        corpora.load_corpus("pud:en")
    except SourceUnavailable:
        return False
    return True


def pud_texts(n: int = PUD_MEASURED) -> list[ParallelText]:
    """The first ``n`` PUD sentences of each language, one per line; ``SourceUnavailable`` without data."""
    return [
        ParallelText(item.language, _language_name(item), "\n".join(_lines(item.key)[:n]))
        for item in pud_entries()
    ]


def pud_training_text(skip: int = PUD_MEASURED) -> str:
    """Every PUD sentence after the first ``skip`` of each language, language after language."""
    return "\n".join("\n".join(_lines(item.key)[skip:]) for item in pud_entries())


def _lines(key: str) -> list[str]:
    return corpora.load_corpus(key).splitlines()


def _language_name(item: corpora.CorpusEntry) -> str:
    """"German" from "PUD news and Wikipedia sentences (German)"."""
    return item.title.rpartition("(")[2].rstrip(")") or item.language
