"""The corpus catalog: built-in samples, pasted or uploaded text, and public corpora pinned by sha256.

Every page that trains or measures picks its text here, so licences, sizes and the held-out split
are decided once. Built-in samples are short texts written for this project (``data/samples``) and
always work. Public corpora are obtained through ``core.fetch.sources``: the data folder
(``PLAYGROUND_DATA_DIR``) first, then the cache, then the canonical source where the file there is
byte-identical to the pin (only Tiny Shakespeare). The other public files are cleaned or converted
versions (Gutenberg headers stripped, UDHR XML and PUD CoNLL-U turned into text), which this module
cannot reproduce and verify, so they come from the data folder only and say so when it is missing.

What this module does not do: train or tokenize (``core.bpe``), draw (``ui``).
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from core.fetch.sources import FileSpec, SourceUnavailable, UrlSource, obtain
from core.text.textio import MAX_UPLOAD_BYTES, decode_text_upload

SAMPLES_DIR = Path(__file__).resolve().parent.parent / "data" / "samples"
SAMPLE_LICENCE = "written for this project; same licence as its code"
PUD_NOTICE = (
    "Parallel Universal Dependencies (PUD) treebanks, CoNLL 2017 shared task, by the Universal "
    "Dependencies contributors; CC BY-SA 3.0 or 4.0 depending on the language; sentence text only."
)
UDHR_NOTICE = "Universal Declaration of Human Rights, from the UDHR in XML project (unicode.org/udhr)."
_DATA_ONLY = "read from the data folder only: this cleaned copy has no byte-identical public download"


@dataclass(frozen=True)
class CorpusEntry:
    """One corpus the catalog offers: what it is, how big, under which licence, and where from.

    ``spec`` says how ``core.fetch.sources`` obtains a public corpus; built-in samples have none.
    ``notice`` is attribution to show wherever the text is shown (PUD's CC BY-SA).
    """

    key: str
    title: str
    group: str  # "Built-in samples" or "Public corpora"
    language: str  # BCP-47 tag, "mul" for several languages, "code" for source code
    size_bytes: int
    sha256: str
    licence: str
    source: str
    notice: str = ""
    spec: FileSpec | None = None

    @property
    def builtin(self) -> bool:
        return self.spec is None


@dataclass(frozen=True)
class Corpus:
    """A text ready to train on or measure: the entry it came from, or a paste or an upload.

    >>> corpus_from_paste("hola").size_bytes
    4
    """

    key: str
    title: str
    text: str
    licence: str
    source: str
    notice: str = ""

    @property
    def size_bytes(self) -> int:
        return len(self.text.encode())

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.text.encode()).hexdigest()


@dataclass(frozen=True)
class UdhrLanguage:
    """One translation of the UDHR in the data folder's ``udhr/manifest.tsv``."""

    key: str
    bcp47: str
    script: str
    direction: str
    name: str
    size_bytes: int
    sha256: str


# Public corpora in the data folder's corpora/MANIFEST.tsv: key, title, language, file, bytes, sha256,
# licence, source. Only Tiny Shakespeare has a byte-identical canonical download.
_TINY_SHAKESPEARE_URL = "https://raw.githubusercontent.com/karpathy/char-rnn/master/data/tinyshakespeare/input.txt"
_PUBLIC = (
    ("tinyshakespeare", "Tiny Shakespeare", "en", "tinyshakespeare.txt", 1_115_394,
     "86c4e6aa9db7c042ec79f339dcb96d42b0075e16b8fc2e86bf0ca57e2dc565ed",
     "public domain text (repository MIT)", "karpathy/char-rnn data/tinyshakespeare/input.txt"),
    ("don_quijote_es", "Don Quijote (Spanish)", "es", "es_don_quijote_pg2000.txt", 2_168_310,
     "b23f7e93e3641ed041e59ed21da93c0d5610e991c9a2688e034c4345829b76b3",
     "public domain", f"Project Gutenberg #2000, header and footer stripped; {_DATA_ONLY}"),
    ("don_quixote_en", "Don Quixote (English, Ormsby)", "en", "en_don_quixote_ormsby_pg996.txt", 2_319_655,
     "782acd3e74b0d46195e85147850530dab64a72f9b73e2f6c4655a5baae5c48fd",
     "public domain", f"Project Gutenberg #996, header, footer and editor's notes stripped; {_DATA_ONLY}"),
    ("la_regenta_es", "La Regenta (Spanish)", "es", "es_la_regenta_pg17073.txt", 1_835_363,
     "a4133c8fa0644b382e9e72632ab5ac9f2c6a762115e627a65360140667d6b70c",
     "public domain", f"Project Gutenberg #17073, header and footer stripped; {_DATA_ONLY}"),
    ("botchan_en", "Botchan (English)", "en", "en_botchan_pg8868.txt", 255_141,
     "777cdd61e668a6617f481873ca8af4b332cef43bef005f9e9ee69c089b40890d",
     "public domain", f"Project Gutenberg #8868, header and footer stripped; {_DATA_ONLY}"),
    ("wagahai_ja", "Wagahai wa Neko de Aru (Japanese)", "ja", "ja_wagahai_wa_neko_de_aru.txt", 958_228,
     "437f20398c4f61bdd9a738c31fe0ec95fffa468c10d131804dff5ef92734292e",
     "public domain", f"Aozora Bunko, ruby readings removed; {_DATA_ONLY}"),
    ("python_stdlib", "Python standard library (sample)", "code", "code/python_stdlib_sample.py.txt", 245_374,
     "fd156bd341b56a87055706030180734330fd3cf6def150dd3aca2ce9905a5904",
     "PSF License", f"about 245 kB of CPython standard-library modules, concatenated; {_DATA_ONLY}"),
    ("essay_es_six_lines", "Six lines of Spanish: character BPE by hand", "es", "essay_es_six_lines.txt", 378,
     "72df953ca2e07c61cc6e206f042933d7ddc05825fcb7aa208857918e642fbf17",
     "short example text, quoted for teaching",
     "the worked example of an essay on tokenization in Spanish (children learning to program), as "
     f"printed there; its first merges, a + </w> (18) and p + r (16), can be checked by hand; {_DATA_ONLY}"),
)
_UDHR_MANIFEST = FileSpec(
    "manifest.tsv", "b7cbf9355edf19ee55f492881cb5cfa892dd54a86412ca5c4e2bd570e0d2f939", "corpora/udhr"
)
# PUD sentence text per language (pud/pud_sources.json in the data folder): code, name, bytes, sha256.
_PUD = (
    ("ar", "Arabic", 170568, "2d7a064887cf1ca3892dde8f972232dc108da775443d83346667fd2e3e6e3bf2"),
    ("cs", "Czech", 116904, "96ff7c81633527a620789ffd5ace16a3b23d30d7f00a93f1252e568205a01c38"),
    ("de", "German", 128846, "b3334a75152e3dae66e30c22ca64884ac1dea2fac3bdb0611a047cb45406e2b0"),
    ("en", "English", 111421, "33ba9e548762dac0b624bd1db8eb077a38d4159d3b126393d6bfbfc3089858f7"),
    ("es", "Spanish", 126104, "65e87a764fe4cc1d61883d0f7c6d78dcc2a9017f722776ebb84f49e9de520016"),
    ("fi", "Finnish", 121763, "7b1d6b508643ef50fdc7df23e5bfb8a0bdb39eaa3c0dd12a1a37f34a99c91753"),
    ("fr", "French", 132745, "4bccb566709d155482bf533a2936083d7f0597c42643d9c1eaf2956566c812ac"),
    ("gl", "Galician", 120537, "ed24312b57378da45b6b4c93b9d29b4815f9eda58bdef8dfc69abdba839a224d"),
    ("hi", "Hindi", 287846, "c2f8257ccb9469ede767edeb2188424615d7f6fa165b3f4404d63ba78e9b8712"),
    ("id", "Indonesian", 120154, "045c75d70e1fad08651b2f453f0469a950548405e37ef014121cdabd60f7e2e0"),
    ("is", "Icelandic", 121171, "f6466923b46b91b61862ede50e9c671624f369e8112e0efff8cbff0818032120"),
    ("it", "Italian", 125598, "91e79e88ef233b4806884fc5322d2b838b868091f96ec680d0144096ea426fb9"),
    ("ja", "Japanese", 141545, "558b480691ad50e2af18446ffa5beb7b416b8b232c1e379d85dfd837241914eb"),
    ("ko", "Korean", 132619, "7d3f9e1ffe8717a2836f31096f44324e6d8a1d90ac48f2ddfd2a36d84bafccce"),
    ("pl", "Polish", 119915, "e464dd83019c3690e01dd6d8f1702f3214bd11e743746e571ff59ed882d2b55c"),
    ("pt", "Portuguese", 121170, "3f1be1ecedf40bfced9be6c7a1ea4cd6b90879eaa678106547622fe0a16e402a"),
    ("ru", "Russian", 213766, "b38546f79a03ed00e42b13af9e3e910f11bf6cf5905bb3a746d14b4e1ce356c1"),
    ("sv", "Swedish", 117100, "9efed2c161442852da78c24fb8bbea434d60b5bf50688c98b239394fe54ec910"),
    ("th", "Thai", 288631, "dc647ae43a946ff26cb4d8c1f95468445acc9340e2c44e46eb3b6011c681b76c"),
    ("tr", "Turkish", 121182, "ac5daecc1a9b5522bedd260782e0ae90e4613ad34b9cb39d3ce907c17281e414"),
    ("zh", "Chinese", 101778, "08b8258f235f48d9880b4fc392b89ce81f7f8f8d7b6819f1a12fdd35d8d283fb"),
)
_SAMPLES = (
    ("sample_essay_en", "Essay: why a model never sees letters", "en", "en_tokenization_essay.txt"),
    ("sample_mercado_es", "Ensayo: el mercado de las palabras", "es", "es_mercado_de_palabras.txt"),
    ("sample_multilingual", "One sentence in 17 languages, numbers and emoji", "mul", "multilingual_mix.txt"),
    ("sample_python", "Python: a tiny library inventory", "code", "python_code.py.txt"),
)
DEFAULT_KEY = "sample_essay_en"


def catalog() -> list[CorpusEntry]:
    """Every corpus on offer: built-in samples first, then public corpora (UDHR in English).

    Other UDHR translations are keyed ``udhr:<key>``; ``udhr_languages()`` lists them.

    >>> catalog()[0].key
    'sample_essay_en'
    """
    return [*_samples(), *_public_entries()]


def entry(key: str) -> CorpusEntry:
    """The catalog entry for ``key`` (``udhr:<key>`` for any UDHR translation), or ``ValueError``."""
    for item in catalog():
        if item.key == key:
            return item
    if key.startswith("udhr:"):
        for language in udhr_languages():
            if f"udhr:{language.key}" == key:
                return _udhr_entry(language)
    raise ValueError(f"no corpus called {key!r}; pick one from the catalog")


def load_corpus(key: str, *, progress: Callable[[float, str], None] | None = None) -> str:
    """The text of the corpus ``key``: built-in, or obtained (data folder, cache, download) and verified.

    Raises ``SourceUnavailable`` with what to do when a public corpus cannot be had (offline, no data
    folder); the built-in samples always load. ``progress(fraction, message)`` reports a download.

    >>> load_corpus("sample_essay_en").startswith("Why a language model")
    True
    """
    item = entry(key)
    if item.spec is None:
        return _sample_text(key)
    try:
        found = obtain(item.spec, progress=progress)
    except SourceUnavailable as exc:
        how = "could not be obtained" if item.spec.remotes else "comes only from the data folder (no public copy is byte-identical)"
        raise SourceUnavailable(f"{item.title} {how}: {exc.reason}. The built-in samples work without it.") from None
    return found.path.read_text(encoding="utf-8")


def get_corpus(key: str, *, progress: Callable[[float, str], None] | None = None) -> Corpus:
    """``load_corpus`` with the entry's title, licence, source and notice attached."""
    item = entry(key)
    return Corpus(item.key, item.title, load_corpus(key, progress=progress), item.licence, item.source, item.notice)


def corpus_from_paste(text: str) -> Corpus:
    """A pasted text as a corpus, or ``ValueError`` when there is nothing to learn from."""
    if not text.strip():
        raise ValueError("the pasted text is empty: paste some text or pick a corpus from the catalog")
    return Corpus("pasted", "Pasted text", text, "yours", "pasted into the page")


def corpus_from_upload(data: bytes, *, name: str, max_bytes: int = MAX_UPLOAD_BYTES) -> Corpus:
    """An uploaded ``.txt`` file (UTF-8, at most ``max_bytes``) as a corpus, or a one-line ``ValueError``.

    >>> corpus_from_upload(b"hello", name="notes.txt").text
    'hello'
    """
    suffix = Path(name).suffix.lower()
    if suffix != ".txt":
        kind = f"a {suffix} file" if suffix else "a file without an extension"
        raise ValueError(f"{name} is {kind}; upload a .txt file of UTF-8 text (save or export it as plain text)")
    text = decode_text_upload(data, name=name, max_bytes=max_bytes)
    if not text.strip():
        raise ValueError(f"{name} is empty; upload a file with some text in it")
    return Corpus(f"upload:{name}", name, text, "yours", f"uploaded file {name}")


def split_heldout(text: str, fraction: float = 0.1) -> tuple[str, str]:
    """``(train, heldout)``: the last ``fraction`` of ``text`` held out, cut at a line start near the mark.

    Subtle: the cut moves to the line start nearest the mark (so no line is split); a text without
    a line break is cut at the mark itself. ``train + heldout == text``.

    >>> split_heldout("one\\ntwo\\nthree\\nfour\\n", 0.3)
    ('one\\ntwo\\nthree\\n', 'four\\n')
    """
    if not 0.0 < fraction < 1.0:
        raise ValueError(f"fraction must be between 0 and 1 (exclusive), not {fraction}")
    mark = round(len(text) * (1.0 - fraction))
    before = text.rfind("\n", 0, mark) + 1
    after = text.find("\n", mark) + 1
    starts = [s for s in (before, after) if 0 < s < len(text)]
    cut = min(starts, key=lambda s: abs(s - mark)) if starts else mark
    return text[:cut], text[cut:]


@functools.lru_cache(maxsize=1)
def udhr_languages() -> list[UdhrLanguage]:
    """The UDHR translations listed in the data folder's manifest (``SourceUnavailable`` without it)."""
    manifest = obtain(_UDHR_MANIFEST).path.read_text(encoding="utf-8").splitlines()
    header = manifest[0].split("\t")
    rows = [dict(zip(header, line.split("\t"), strict=True)) for line in manifest[1:] if line.strip()]
    return [
        UdhrLanguage(r["key"], r["bcp47"], r["script"], r["dir"], r["name"], int(r["bytes"]), r["sha256"])
        for r in rows
    ]


@functools.lru_cache(maxsize=1)
def _samples() -> tuple[CorpusEntry, ...]:
    out = []
    for key, title, language, filename in _SAMPLES:
        data = (SAMPLES_DIR / filename).read_bytes()
        out.append(
            CorpusEntry(
                key, title, "Built-in samples", language, len(data), hashlib.sha256(data).hexdigest(),
                SAMPLE_LICENCE, f"data/samples/{filename}",
            )
        )
    return tuple(out)


def _sample_text(key: str) -> str:
    filename = next(f for k, _, _, f in _SAMPLES if k == key)
    return (SAMPLES_DIR / filename).read_text(encoding="utf-8")


def _public_entries() -> list[CorpusEntry]:
    out = []
    for key, title, language, path, size, sha, licence, source in _PUBLIC:
        subdir, _, filename = f"corpora/{path}".rpartition("/")
        remotes = (UrlSource(_TINY_SHAKESPEARE_URL),) if key == "tinyshakespeare" else ()
        spec = FileSpec(filename, sha, subdir, remotes, size_hint=size)
        out.append(CorpusEntry(key, title, "Public corpora", language, size, sha, licence, source, spec=spec))
    out.append(
        _udhr_entry(
            UdhrLanguage(
                "eng", "en", "Latn", "ltr", "English", 10_837,
                "e998ec424995ee67e7d9aeee6797afc134ba56e010d70725b503237eeb72ba95",
            )
        )
    )
    for code, name, size, sha in _PUD:
        spec = FileSpec(f"{code}.txt", sha, "corpora/pud", size_hint=size)
        out.append(
            CorpusEntry(
                f"pud:{code}", f"PUD news and Wikipedia sentences ({name})", "Public corpora", code, size, sha,
                "CC BY-SA", f"UD_{name}-PUD treebank, sentence text of its 1,000 sentences; {_DATA_ONLY}",
                notice=PUD_NOTICE, spec=spec,
            )
        )
    return out


def _udhr_entry(language: UdhrLanguage) -> CorpusEntry:
    spec = FileSpec(f"{language.key}.txt", language.sha256, "corpora/udhr/txt", size_hint=language.size_bytes)
    return CorpusEntry(
        f"udhr:{language.key}", f"Universal Declaration of Human Rights ({language.name})", "Public corpora",
        language.bcp47, language.size_bytes, language.sha256, "UDHR texts, which the UDHR in XML project calls part of our commons",
        f"UDHR in XML, converted to text; {_DATA_ONLY}", notice=UDHR_NOTICE, spec=spec,
    )
