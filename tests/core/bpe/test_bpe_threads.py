"""core.bpe.BPETokenizer shared by sessions: its per-text history cache under contention.

Streamlit runs each session in its own thread and the trained tokenizer is one cached object, so
``segment`` / ``changed_spans`` / ``change_steps`` run concurrently on more texts than the cache keeps.
"""

from __future__ import annotations

import pickle
import sys
import threading

from core import bpe


def test_histories_survive_many_threads_and_evictions() -> None:
    result = bpe.train("the cat sat on the mat; the dog ate the hat " * 20, num_merges=30)
    tok = result.tokenizer
    texts = [f"the {word} sat on mat number {n}" for n in range(6) for word in ("cat", "dog", "hat")]
    expected = {text: [t.id for t in tok.encode(text)] for text in texts}
    errors: list[BaseException] = []
    start = threading.Barrier(12)

    def work(seed: int) -> None:
        try:
            start.wait()
            for i in range(1000):
                text = texts[(seed * 7 + i * 5) % len(texts)]
                assert [t.id for t in tok.segment(text, len(result.trace))] == expected[text]
                tok.changed_spans(text, 1 + i % 30)
                tok.change_steps(text)
        except BaseException as exc:  # noqa: BLE001 — collected and re-raised in the main thread
            errors.append(exc)

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as possible: races show up at once
    try:
        threads = [threading.Thread(target=work, args=(seed,)) for seed in range(12)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(interval)
    assert not errors, repr(errors[0])


def test_a_tokenizer_with_its_lock_still_pickles() -> None:
    tok = bpe.train("abab abab", num_merges=2).tokenizer
    tok.segment("abab", 1)
    copy = pickle.loads(pickle.dumps(tok))
    assert copy.segment("abab", 2) == tok.segment("abab", 2)
