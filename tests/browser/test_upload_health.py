"""A runaway uploaded tokenizer never stalls the server for anyone else (issue 19, item 3).

One browser session (``bench.regex_health.one_run``, the bench's own run) uploads a tokenizer.json
whose ``Split`` pre-tokenizer is ``(a+)+$`` and gives it a text that keeps the library's regex engine busy for about 16 s; meanwhile another client polls
``/_stcore/health``. Before the worker processes, that poll stalled for as long as the regex ran
(the library holds Python's GIL); now no poll may take over ``MAX_STALL_S``, and the column says
the tokenizer could not encode the text in its budget. Subtle: this also caught the garbage
collector's full collections (0.7-1.2 s after a page run, with the registry's tokenizers alive),
which ``ui.cache`` now avoids by freezing what a tokenizer load leaves alive. The bench builds the file.
"""

from __future__ import annotations

import pytest

from bench.regex_health import one_run
from core.pretrained.sandbox import BASE_BUDGET_S

pytestmark = pytest.mark.browser

MAX_STALL_S = 0.5


def test_a_runaway_tokenizer_does_not_stall_the_health_check(blank_page, app_url, tmp_path) -> None:
    page = blank_page  # one_run opens the Playground itself
    result = one_run(page, app_url, tmp_path, 0, timeout_ms=60_000)
    poller = result.poller
    assert f"in {BASE_BUDGET_S:.0f} s" in result.sentence
    assert result.waited >= BASE_BUDGET_S  # the runaway ran for its whole budget while the polls went on
    assert len(poller.seconds) > 20
    polls = zip(poller.at, poller.seconds, strict=False)  # the last poll may still be on its way
    slow = [(round(at - result.began, 2), round(s, 2)) for at, s in polls if s >= MAX_STALL_S / 2]
    print(f"runaway stopped after {result.waited:.1f} s; /_stcore/health: {len(poller.seconds)} polls, "
          f"slowest {max(poller.seconds):.3f} s")
    assert max(poller.seconds) < MAX_STALL_S, f"/_stcore/health took {max(poller.seconds):.2f} s (at, s): {slow}"
    assert "Traceback" not in page.content()
