"""Each registry tokenizer loaded once per test process, whichever test file asks first.

Building a tokenizer costs up to 2 s of processor time (a GGUF vocabulary rebuilt into a
``tokenizers`` model), and some twenty test files each used to load all thirty on their own: that was
the largest share of the core suite's time. A load that fails is not kept, so each caller still gets
``TokenizerUnavailable`` (and skips or fails as it did); the caller's environment (``PLAYGROUND_OFFLINE``)
decides whether a missing file may be downloaded, as it did before.
"""

from __future__ import annotations

from core.pretrained import PretrainedTokenizer, load

_LOADED: dict[str, PretrainedTokenizer] = {}


def load_once(key: str) -> PretrainedTokenizer:
    """``core.pretrained.load(key)``, the first time in this process; the same object after that."""
    if key not in _LOADED:
        _LOADED[key] = load(key)
    return _LOADED[key]
