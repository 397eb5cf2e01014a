"""The bar a GGUF upload draws while it is read: fractions in order, file text escaped, and an AppTest
upload of a real (small) GGUF vocabulary through the sidebar uploader."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from ui import state
from ui.uploads import gguf_progress

ROOT = Path(__file__).resolve().parents[2]
PAGE = str(ROOT / "pages" / "9_Inside_a_tokenizer.py")


class FakeBar:
    def __init__(self) -> None:
        self.calls: list[tuple[float, str]] = []

    def progress(self, fraction: float, text: str = "") -> FakeBar:
        self.calls.append((fraction, text))
        return self


def test_the_bar_follows_the_reading_once_a_percent_and_escapes_file_text() -> None:
    bar = FakeBar()
    progress = gguf_progress(bar, "my_[vocab].gguf")
    for i in range(1, 1001):
        progress(i / 1000, f"tokenizer.ggml.tokens: {i} of 1000 *x*")
    fractions = [fraction for fraction, _ in bar.calls]
    assert fractions == sorted(fractions) and fractions[-1] == 1.0 and len(bar.calls) <= 102
    assert all("my\\_\\[vocab\\]\\.gguf" in text for _, text in bar.calls)
    assert "\\*x\\*" in bar.calls[-1][1]


def test_a_gguf_upload_reads_under_a_bar_and_joins_the_picker(tmp_path: Path) -> None:
    from tests.core.pretrained.test_gguf_vocab import write_gguf

    tokens = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "\u2581hello", "\u2581world", "s"]
    data = write_gguf(tmp_path / "bert.gguf", model="bert", tokens=tokens, types=[3, 2, 3, 3, 1, 1, 1])
    at = AppTest.from_file(PAGE, default_timeout=120)
    at.run()
    at.file_uploader(key="it_tokenizer_upload").set_value(("bert.gguf", data, "application/octet-stream")).run()
    assert not at.exception and not at.error
    assert at.selectbox(key=state.IT_TOKENIZER).value.startswith("upload:")
    assert not any(element.type == "progress" for element in at.sidebar)  # the bar is gone once read
