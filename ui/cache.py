"""Caching around the pretrained registry: tokenizers load once per server process, results are reused.

- ``tokenizer_store()`` is an ``st.cache_resource``: one ``TokenizerStore`` per server process,
  shared by every session. It holds each loaded tokenizer, or an ``Unavailable`` record with the
  reason, so a missing file is not looked for again on every rerun; ``forget(key)`` (the "retry"
  button) clears one entry. Subtle: the store, not ``load`` itself, is the cached resource, because
  a loader wrapped in ``st.cache_resource`` would record the progress bar it draws and replay it on
  every later cache hit; here the progress bar is drawn outside any cached function.
- ``TokenizerRef`` is the one identity of a tokenizer, registry or uploaded (``ui.uploads.resolve``
  makes it; ``registry_ref`` for a registry key): its ``analyze``, ``spans_html``, ``tokens`` and
  ``tokens_later`` are the only path to results, kept under the ref's content ``digest`` in the
  caches the ref names. A registry tokenizer's go to process-wide caches bounded by *memory*, not by
  count (``ui.bounded.SizedCache``, sizes from ``ANALYSES_MB`` and ``SPANS_MB``): a stream of
  distinct megabyte texts cannot grow the server without end. ``analyze(key, …)``, ``spans_html``
  and ``all_tokens`` are that path for a registry key. Keys hold a digest of the text, not the
  text. Results are frozen, so sharing them between sessions is safe.
- An analysis of a text up to ``WHOLE_CHARS`` holds all its tokens, packed
  (``core.tokens.packed.PackedTokens``, ~20 bytes a token instead of ~190). A longer text is counted from
  the library's ids alone (``outline``: every id, the kinds, the round trip) and holds only its
  first tokens (``core.tokens.head.leading_tokens``, checked against those ids); ``tokens(...)`` gives
  more when "Show more" asks, and all of them for an export. So 400 KB under 21 tokenizers costs
  the libraries' encodes, not 3 million ``Token`` objects, and 4 bytes a token in the cache.
- A text over ``BIG_TEXT_BYTES`` is encoded by one session at a time: two users pasting 5 MB at once
  would otherwise hold two sets of ~2 million ``Token`` objects before they are packed.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import threading
import time
from array import array
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import streamlit as st

from core.measures.metrics import TextCounts, text_counts
from core.pretrained.adapter import outline_of
from core.tokens.head import leading_tokens
from core.tokens.packed import PackedTokens
from core.tokens.roundtrip import Difference, first_difference
from core.types import Token
from ui.bounded import SizedCache
from ui.spans import DEFAULT_LIMIT, render_spans

Progress = Callable[[float, str], None]


@dataclass(frozen=True)
class Unavailable:
    """A tokenizer that could not be loaded, and the one-line reason (which says how to get it)."""

    key: str
    name: str
    reason: str


@dataclass(frozen=True)
class Analysis:
    """One text under one tokenizer: its ids, counts, first tokens, and whether the round trip loses text."""

    key: str
    head: Sequence[Token]  # the first tokens of the encoding (all of them when ``complete``), packed
    ids: Sequence[int]  # the id of every token, ADDED ones included, in order
    counts: TextCounts
    lossy: bool  # decode(encode(text)) != text
    seconds: float  # time to encode, decode and count
    added: tuple[str, ...] = ()  # the literals of the tokens the tokenizer added (BOS, [CLS]), each once
    difference: Difference | None = None  # where a lossy round trip first changes the text

    @property
    def total(self) -> int:
        """How many tokens the whole encoding has (``ADDED`` ones included)."""
        return len(self.ids)

    @property
    def complete(self) -> bool:
        """Whether ``head`` is the whole encoding."""
        return len(self.head) == len(self.ids)


class TokenizerStore:
    """Tokenizers by registry key, each loaded at most once; failures are remembered too.

    ``loader(key, progress)`` returns a tokenizer or an ``Unavailable``; it must not raise. A lock
    per key means two sessions asking for the same tokenizer at once load it once.
    """

    def __init__(self, loader: Callable[[str, Progress | None], Any]) -> None:
        self._loader = loader
        self._items: dict[str, Any] = {}
        self._locks: dict[str, threading.Lock] = {}
        self._guard = threading.Lock()

    def peek(self, key: str) -> Any | None:
        """The tokenizer or ``Unavailable`` for ``key`` if it was loaded already, else ``None``."""
        return self._items.get(key)

    def get(self, key: str, *, progress: Progress | None = None) -> Any:
        """The tokenizer or ``Unavailable`` for ``key``, loading it on first use."""
        item = self._items.get(key)
        if item is not None:
            return item
        with self._guard:
            lock = self._locks.setdefault(key, threading.Lock())
        with lock:
            if key not in self._items:
                self._items[key] = self._loader(key, progress)
                _freeze_heap()
            return self._items[key]

    def forget(self, key: str) -> None:
        """Drop what is known about ``key`` so the next ``get`` tries again."""
        self._items.pop(key, None)


def _freeze_heap() -> None:
    """Move every object alive now (a loaded tokenizer's millions) out of the garbage collector's sight.

    Subtle: a full collection walks every tracked object while holding the GIL; with a few
    tokenizers loaded that took 0.7-1.2 s after every page run, and every session (and the health
    check) waited. They live as long as the process, so they are frozen once, after a collection of
    the young generations (where the load's garbage is): a full one walked everything imported so far
    again, 0.08 s of the first visit.
    """
    import gc

    gc.collect(1)
    gc.freeze()


def load_from_registry(key: str, progress: Progress | None = None) -> Any:
    """``core.pretrained.load``, with every failure turned into an ``Unavailable`` (never a traceback)."""
    from core import pretrained  # lazily: importing the registry must not slow the first paint

    specs = pretrained.registry()
    name = specs[key].name if key in specs else key
    if key not in specs:
        return Unavailable(key, name, f"'{key}' is not in the tokenizer registry.")
    try:
        return pretrained.load(key, progress=progress)
    except pretrained.TokenizerUnavailable as exc:
        return Unavailable(key, name, str(getattr(exc, "reason", exc)))
    except Exception as exc:  # a broken file or library must grey out one column, not the page
        return Unavailable(key, name, f"loading failed ({type(exc).__name__}: {exc}).")


@st.cache_resource(show_spinner=False)
def tokenizer_store() -> TokenizerStore:
    """The one store of this server process, shared by all sessions."""
    return TokenizerStore(load_from_registry)


@st.cache_data(show_spinner=False)
def registry_names() -> dict[str, str]:
    """Registry key → display name, in registry order."""
    from core import pretrained

    return {key: spec.name for key, spec in pretrained.registry().items()}


def get_tokenizer(key: str, name: str | None = None) -> Any:
    """The tokenizer for ``key`` (or its ``Unavailable``), with a progress bar while it first loads."""
    store = tokenizer_store()
    known = store.peek(key)
    if known is not None:
        return known
    slot = st.empty()
    bar = slot.progress(0.0, text=f"Loading {name or key} …")

    def progress(fraction: float, message: str) -> None:
        bar.progress(min(max(float(fraction), 0.0), 1.0), text=f"{name or key}: {message}")

    try:
        return store.get(key, progress=progress)
    finally:
        slot.empty()


def retry(key: str) -> None:
    """Forget a failed load (and the sources' memory of failed downloads) so it is tried again."""
    from core.fetch import sources

    tokenizer_store().forget(key)
    sources.forget_failures()


def _mb(name: str, default: int) -> int:
    try:
        return max(1, int(os.environ.get(name, default)))
    except ValueError:
        return default


ANALYSES_MB = _mb("PLAYGROUND_ANALYSES_MB", 256)  # packed tokens of every cached analysis, together
SPANS_MB = _mb("PLAYGROUND_SPANS_MB", 64)  # span HTML of every cached drawing, together
BIG_TEXT_BYTES = 1_000_000
_BIG_ENCODE = threading.BoundedSemaphore(1)


@functools.lru_cache(maxsize=4)
def text_digest(text: str) -> str:
    """A short, collision-safe name for a text, for cache keys (a key must not hold megabytes).

    Subtle: memoized, because a run asks for the digest of the same text once per column and cache;
    the lookup hashes the ``str`` once (Python keeps a string's hash) and compares by identity.
    """
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


def analysis_size(analysis: Analysis) -> int:
    head, ids = analysis.head, analysis.ids
    shared = ids is getattr(head, "ids", None)  # a short text's ids are its packed tokens' own
    return getattr(head, "nbytes", 200 * len(head)) + (0 if shared else getattr(ids, "itemsize", 8) * len(ids)) + 512


def result_size(value: Any) -> int:
    """Bytes a cached result holds: span HTML, an ``Analysis``, or a run of tokens."""
    if isinstance(value, str):
        return len(value)
    if isinstance(value, Analysis):
        return analysis_size(value)
    return getattr(value, "nbytes", 200 * len(value)) + 512


@st.cache_resource(show_spinner=False)
def analyses() -> SizedCache[Analysis]:
    """The analyses of this server process, shared by every session, at most ``ANALYSES_MB`` of them."""
    return SizedCache(max_bytes=ANALYSES_MB * 1_000_000, size=result_size)


@st.cache_resource(show_spinner=False)
def drawings() -> SizedCache[str]:
    """The span HTML of this server process, at most ``SPANS_MB`` of it."""
    return SizedCache(max_bytes=SPANS_MB * 1_000_000, size=len)


def analyze(key: str, text: str, allow_special: bool) -> Analysis:
    """Tokens, counts and the round-trip check of ``text`` under the (already loaded) tokenizer ``key``."""
    return registry_ref(key, loaded=True).analyze(text, allow_special)


WHOLE_CHARS = 30_000  # a longer text is counted from ids and only its first tokens are built
HEAD_CHARS = 4_000  # characters the first tokens of a long text cover (a screenful at one column)


def compute_analysis(key: str, tokenizer: Any, text: str, allow_special: bool) -> Analysis:
    """``analyze`` for a tokenizer in hand (an uploaded one, which is not in the store)."""
    began = time.perf_counter()
    with _BIG_ENCODE if len(text) > BIG_TEXT_BYTES else contextlib.nullcontext():
        outline = None
        if len(text) > WHOLE_CHARS and hasattr(tokenizer, "outline"):
            outline = tokenizer.outline(text, allow_special=allow_special)
            head = leading_tokens(
                tokenizer, text, ids=outline.ids, at_least=1, chars=HEAD_CHARS, allow_special=allow_special
            )
        if outline is None or head is None:
            tokens = tokenizer.encode(text, allow_special=allow_special)
            outline, head = outline_of(tokens), tokens
        difference = first_difference(text, tokenizer.decode(outline.text_ids()))
        lossy = difference is not None
        counts = text_counts(text, outline.kinds)
        packed = PackedTokens(head)
        ids = packed.ids if len(packed) == len(outline.ids) else array("i", outline.ids)
    return Analysis(key, packed, ids, counts, lossy, time.perf_counter() - began, tuple(dict.fromkeys(outline.added)),
                    difference)


def tokens(
    key: str, tokenizer: Any, analysis: Analysis, text: str, allow_special: bool, *, at_least: int | None = None,
    results: SizedCache | None = None,
) -> Sequence[Token]:
    """At least ``at_least`` of the first tokens of ``text`` under ``tokenizer`` (all: ``None``).

    ``analysis.head`` when it has enough; else more are built (checked against ``analysis.ids``)
    and kept in ``results`` (the analyses cache), the longest run per text, so "Show more" on a
    400 KB text builds a few thousand tokens, and an export all of them once.
    """
    wanted = analysis.total if at_least is None else min(at_least, analysis.total)
    if len(analysis.head) >= wanted:
        return analysis.head
    results = analyses() if results is None else results
    name = ("tokens", key, text_digest(text), allow_special)
    known = results.peek(name)
    if known is not None and len(known) >= wanted:
        return known

    def build() -> Sequence[Token]:
        per_token = len(text) / max(analysis.total, 1)
        head = None
        if wanted < analysis.total:
            head = leading_tokens(tokenizer, text, ids=analysis.ids, at_least=wanted,
                                  chars=int(wanted * per_token * 1.25) + 64, allow_special=allow_special)
        with _BIG_ENCODE if head is None and len(text) > BIG_TEXT_BYTES else contextlib.nullcontext():
            return PackedTokens(tokenizer.encode(text, allow_special=allow_special) if head is None else head)

    return results.put(name, build())


def spans_html(
    key: str,
    text: str,
    *,
    allow_special: bool,
    show_whitespace: bool,
    raw_pieces: bool,
    limit: int = DEFAULT_LIMIT,
    more: str | None = None,
) -> str:
    """``render_spans`` of ``analyze(key, text, allow_special)``, cached per option set."""
    return registry_ref(key, loaded=True).spans_html(
        text, allow_special=allow_special, show_whitespace=show_whitespace, raw_pieces=raw_pieces, limit=limit,
        more=more,
    )


def all_tokens(key: str, text: str, allow_special: bool) -> Sequence[Token]:
    """Every token of ``text`` under the (already loaded) registry tokenizer ``key``."""
    return registry_ref(key, loaded=True).tokens(text, allow_special)


def draw_spans(
    key: str, tokenizer: Any, analysis: Analysis, text: str, *, allow_special: bool, show_whitespace: bool,
    raw_pieces: bool, limit: int, more: str | None, results: SizedCache | None = None,
) -> str:
    """``render_spans`` of the first ``limit`` tokens of ``analysis`` (the count of all of them said)."""
    shown = tokens(key, tokenizer, analysis, text, allow_special, at_least=limit, results=results)
    return render_spans(
        text, shown, show_whitespace=show_whitespace, raw_pieces=raw_pieces,
        piece=getattr(tokenizer, "piece", None), limit=limit, more=more, total=analysis.total,
    )


# -- one identity for every tokenizer --------------------------------------------------------------


@dataclass(frozen=True)
class TokenizerRef:
    """One tokenizer as every page uses it, whatever its origin (the registry, an upload, the Hub).

    Made once per picker key and run (``ui.uploads.resolve``, or ``registry_ref``); after that, the
    analysis, the drawn spans, all the tokens and the exports take this one path, with no question
    about where the tokenizer came from. ``digest`` names its content in the result caches: a
    registry key with its file's pinned sha256 (two keys can share one file: o200k_base and
    o200k_harmony read it with other special tokens, so the sha256 alone would not do), or an
    upload's ``Upload.key`` (the file's sha256 and, for a rank file, its pattern's).

    Subtle: the ref holds the loaded tokenizer and its caches themselves, so it works where
    ``st.session_state`` is out of reach (a deferred download's data function, ``tokens_later``).
    """

    key: str  # the picker key: a registry key or an upload's slot ("upload:" + sha256[:16])
    name: str
    digest: str
    sha256: str | None  # the registry file's pinned sha256, or the uploaded file's
    origin: str  # "registry" or "upload" (a Hub tokenizer is kept as an upload)
    tokenizer: Any = field(compare=False, repr=False)  # the loaded tokenizer, or its ``Unavailable``
    results: SizedCache = field(compare=False, repr=False)  # its analyses and runs of tokens
    drawings: SizedCache = field(compare=False, repr=False)  # its span HTML
    notes: tuple[str, ...] = ()  # what was guessed or chosen while reading an uploaded file

    @property
    def available(self) -> bool:
        return not isinstance(self.tokenizer, Unavailable)

    def _loaded(self) -> Any:
        if not self.available:
            raise ValueError(f"{self.tokenizer.name} is unavailable: {self.tokenizer.reason}")
        return self.tokenizer

    def analyze(self, text: str, allow_special: bool) -> Analysis:
        """Tokens, counts and the round-trip check of ``text``, cached under this ref's ``digest``."""
        tokenizer = self._loaded()
        return self.results.get(("analysis", self.digest, text_digest(text), allow_special),
                                lambda: compute_analysis(self.key, tokenizer, text, allow_special))

    def spans_html(self, text: str, *, allow_special: bool, show_whitespace: bool, raw_pieces: bool,
                   limit: int = DEFAULT_LIMIT, more: str | None = None) -> str:
        """``render_spans`` of the first ``limit`` tokens of ``text``, cached per option set."""
        def draw() -> str:
            return draw_spans(self.digest, self._loaded(), self.analyze(text, allow_special), text,
                              allow_special=allow_special, show_whitespace=show_whitespace, raw_pieces=raw_pieces,
                              limit=limit, more=more, results=self.results)

        options = (allow_special, show_whitespace, raw_pieces, limit, more)
        return self.drawings.get(("spans", self.digest, text_digest(text), options), draw)

    def tokens(self, text: str, allow_special: bool) -> Sequence[Token]:
        """Every token of ``text``, built once (for the exports)."""
        return tokens(self.digest, self._loaded(), self.analyze(text, allow_special), text, allow_special,
                      results=self.results)

    def tokens_later(self, text: str, allow_special: bool) -> Callable[[], Sequence[Token]]:
        """``tokens`` for a deferred download, which Streamlit calls outside the session's script run
        (the ref already holds the tokenizer and its caches: nothing is looked up then)."""
        return functools.partial(self.tokens, text, allow_special)


def registry_ref(key: str, name: str | None = None, *, loaded: bool = False) -> TokenizerRef:
    """The ref of registry tokenizer ``key``: loaded now with a progress bar, or (``loaded``) taken from
    the store as it is; its results go to the process-wide ``analyses()`` and ``drawings()``."""
    from core import pretrained

    spec = pretrained.registry().get(key)
    name = name or (spec.name if spec is not None else key)
    tokenizer = tokenizer_store().get(key) if loaded else get_tokenizer(key, name)
    sha256 = spec.files[0].sha256 if spec is not None and spec.files else None
    return TokenizerRef(key, name, registry_digest(key), sha256, "registry", tokenizer, analyses(), drawings())


def registry_digest(key: str) -> str:
    """The ``digest`` of registry tokenizer ``key``'s ref (its key with its pinned sha256), without loading it.

    >>> registry_digest("xlmr")  # its file is not pinned
    'xlmr'
    """
    from core import pretrained

    spec = pretrained.registry().get(key)
    sha256 = spec.files[0].sha256 if spec is not None and spec.files else None
    return f"{key}@{sha256[:16]}" if sha256 else key
