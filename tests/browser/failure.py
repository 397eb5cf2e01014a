"""What a failed browser test's pages showed, printed for the log (in CI the log is all there is)."""

from __future__ import annotations

import pytest


def describe_failure(request: pytest.FixtureRequest, pages: list[object]) -> None:
    """After a failed test, print what its pages showed (the CI log is all there is to read then)."""
    report = getattr(request.node, "report_call", None)
    if report is None or not report.failed:
        return
    for shown in pages:
        try:
            text = shown.evaluate(
                "() => document.querySelector('[data-testid=stMain]')?.innerText || document.body.innerText")
            script = shown.evaluate(
                "() => document.querySelector('[data-test-script-state]')?.getAttribute('data-test-script-state')")
            print(f"--- {shown.url}\nscript state: {script}\n{text[:3000]}")
        except Exception as exc:  # noqa: BLE001 — a page that cannot be read is reported as such
            print(f"--- the page could not be read: {exc}")
