"""AppTest: the sidebar's Hugging Face Hub field against a loopback Hub (tests/hub_server.py).

A fetched tokenizer is used exactly like an uploaded one (picked on Inside a tokenizer, its pipeline
view drawn, a column in the Playground); each failure is one sentence, and the typed id stays.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tests.hub_server import DATA, commit_of, serve_hub
from tests.pages.apptest import cards
from ui import state
from ui.widgets import md_escape

ROOT = Path(__file__).resolve().parents[2]
PAGE = str(ROOT / "pages" / "9_Inside_a_tokenizer.py")
APP = str(ROOT / "app.py")


@pytest.fixture
def endpoint(monkeypatch: pytest.MonkeyPatch, tmp_path):
    if not (DATA / "t5_spiece.model").is_file():
        pytest.skip("the data folder's tokenizer files are not in PLAYGROUND_DATA_DIR")
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hf"))
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    with serve_hub() as (url, seen):
        monkeypatch.setenv("HF_ENDPOINT", url)
        yield url


def typed(path: str, prefix: str, text: str) -> AppTest:
    at = AppTest.from_file(path, default_timeout=120)
    at.run()
    at.text_input(key=f"{prefix}hub_ref").input(text).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_a_hub_tokenizer_is_used_like_an_upload_with_its_sha256_and_revision(endpoint) -> None:
    at = typed(PAGE, "it_", "acme/mbert")
    assert not at.error
    slot = at.selectbox(key=state.IT_TOKENIZER).value
    assert slot.startswith("upload:")
    captions = " ".join(c.value for c in at.caption)
    assert md_escape(f"acme/mbert@{commit_of('acme/mbert')[:12]}/tokenizer.json") in captions
    assert md_escape("(sha256 f4a4d5bf, revision ") in captions
    assert {m.label: m.value for m in at.metric}["vocabulary"] == "119,547"
    assert slot in at.session_state[state.HUB_CONFIGS]  # its tokenizer_config.json, for the chat template
    at.session_state[state.IT_VIEW] = "pipeline"
    at.run()
    assert not at.exception and any(h.proto.body for h in at.html)


def test_a_hub_tokenizer_becomes_a_playground_column(endpoint) -> None:
    at = typed(APP, "pg_", "acme/t5")
    chosen = at.multiselect(key=state.PG_TOKENIZERS).value
    assert chosen[-1].startswith("upload:")
    assert any(card["head"]["name"].startswith("acme/t5@") for card in cards(at))


@pytest.mark.parametrize(("text", "message"), [
    ("acme/gated", "acme/gated is gated"),
    ("acme/nope", "acme/nope is not on the Hub"),
    ("acme/t5@v9", "acme/t5 has no revision 'v9'"),
    ("acme/readme-only", "acme/readme-only has no tokenizer file"),
    ("acme/huge", "is 200.0 MB; tokenizer files up to 64 MB are read"),
    ("acme/not-a-tokenizer", "is JSON but not a tokenizer"),
    ("not an id", "is not a Hub repository id"),
])
def test_each_hub_failure_is_one_sentence_and_the_id_stays(endpoint, text: str, message: str) -> None:
    at = typed(PAGE, "it_", text)
    errors = [e.value for e in at.error]
    assert len(errors) == 1 and md_escape(message) in errors[0], errors
    assert at.text_input(key="it_hub_ref").value == text
    assert at.selectbox(key=state.IT_TOKENIZER).value == "cl100k_base"


def test_no_network_is_one_sentence(endpoint, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_ENDPOINT", "http://127.0.0.1:9")
    at = typed(PAGE, "it_", "acme/mbert")
    errors = [e.value for e in at.error]
    assert len(errors) == 1 and md_escape("The Hub cannot be reached for acme/mbert") in errors[0], errors


def test_offline_and_not_cached_is_one_sentence(endpoint, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    at = typed(PAGE, "it_", "acme/mbert")
    errors = [e.value for e in at.error]
    assert len(errors) == 1 and md_escape("acme/mbert is not in the Hugging Face cache") in errors[0], errors
    assert at.text_input(key="it_hub_ref").value == "acme/mbert"


def test_a_failure_after_a_fetch_loses_nothing(endpoint) -> None:
    """A fetched tokenizer stays picked, and in the picker, when the next id typed fails."""
    at = typed(PAGE, "it_", "acme/t5")
    slot = at.selectbox(key=state.IT_TOKENIZER).value
    assert slot.startswith("upload:") and not at.error
    at.text_input(key="it_hub_ref").input("acme/gated").run()
    assert not at.exception and len(at.error) == 1
    assert at.selectbox(key=state.IT_TOKENIZER).value == slot
    assert any(o.startswith("📄 acme/t5@") for o in at.selectbox(key=state.IT_TOKENIZER).options)
    assert slot in at.session_state[state.UPLOADED_TOKENIZERS]
