"""What a failed browser test's pages showed, for its report (in CI the log is all there is)."""

from __future__ import annotations


def describe_pages(browser: object) -> str:
    """The address, script state and main text of every open page of ``browser``."""
    parts = []
    for context in browser.contexts:
        for shown in context.pages:
            try:
                script, text = shown.evaluate("""() => [
                    document.querySelector('[data-test-script-state]')?.getAttribute('data-test-script-state'),
                    (document.querySelector('[data-testid=stMain]') || document.body).innerText]""")
                parts.append(f"--- {shown.url}\nscript state: {script}\n{text[:3000]}")
            except Exception as exc:  # noqa: BLE001 — a page that cannot be read is reported as such
                parts.append(f"--- {shown.url}: could not be read ({exc})")
    return "\n".join(parts) or "no page was open"
