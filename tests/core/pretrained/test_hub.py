"""core.pretrained.hub against a loopback Hub (tests/hub_server.py): success, the cache, and every failure."""

from __future__ import annotations

import hashlib

import pytest

from core.pretrained import hub
from tests.hub_server import DATA, commit_of, serve_hub


@pytest.fixture
def endpoint(monkeypatch: pytest.MonkeyPatch, tmp_path):
    if not (DATA / "t5_spiece.model").is_file():
        pytest.skip("the data folder's tokenizer files are not in PLAYGROUND_DATA_DIR")
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hf"))
    monkeypatch.setenv("PLAYGROUND_CACHE_DIR", str(tmp_path / "playground"))
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.setenv("PLAYGROUND_ALLOW_LOCAL_URLS", "1")  # the loopback server stands for a public host
    with serve_hub() as (url, seen):
        monkeypatch.setenv("HF_ENDPOINT", url)
        yield url, seen


@pytest.mark.parametrize(("text", "ref"), [
    ("Qwen/Qwen3-8B", hub.HubRef("Qwen/Qwen3-8B")),
    ("  google/gemma-3-1b-it@v1.0 ", hub.HubRef("google/gemma-3-1b-it", "v1.0")),
    ("https://huggingface.co/org/name/resolve/main/tokenizer.json", hub.HubRef("org/name", "main", "tokenizer.json")),
    ("https://huggingface.co/org/name/blob/abc123/sub/tokenizer.model", hub.HubRef("org/name", "abc123", "sub/tokenizer.model")),
    ("https://example.org/files/tok.json", hub.HubRef("", url="https://example.org/files/tok.json")),
])
def test_what_a_user_types_is_read(text: str, ref: hub.HubRef) -> None:
    assert hub.parse_ref(text) == ref


@pytest.mark.parametrize("text", ["gpt2", "org/name/extra", "org/name@", "../x/y", "org /name", "", "a..b/c", "org/name@../../x"])
def test_a_malformed_id_is_one_sentence(text: str) -> None:
    with pytest.raises(hub.HubFailed, match="is not a Hub repository id"):
        hub.parse_ref(text)


def test_a_repository_gives_its_tokenizer_json_revision_sha256_and_config(endpoint) -> None:
    upload, fetched = hub.load("acme/mbert")
    data = (DATA / "bert-base-multilingual-cased_tokenizer.json").read_bytes()
    assert fetched.sha256 == hashlib.sha256(data).hexdigest() and fetched.revision == commit_of("acme/mbert")
    assert upload.filename == f"acme/mbert@{commit_of('acme/mbert')[:12]}/tokenizer.json"
    assert upload.kind == "tokenizer.json" and upload.tokenizer.vocab_size == 119547
    assert upload.notes[0].endswith(f"sha256 {fetched.sha256[:8]}")
    assert fetched.config == (DATA / "qwen3_tokenizer_config.json").read_bytes()
    assert [t.id for t in upload.tokenizer.encode("Hello world")] == [101, 31178, 11356, 102]  # [CLS] … [SEP]


def test_the_next_file_is_tried_and_a_revision_is_honoured(endpoint) -> None:
    upload, fetched = hub.load(f"acme/t5@{commit_of('acme/t5')}")
    assert fetched.filename == "tokenizer.model" and upload.kind == "SentencePiece .model"
    assert fetched.config is None


def test_a_fetched_file_is_cached_and_read_offline(endpoint, monkeypatch: pytest.MonkeyPatch) -> None:
    _, first = hub.load("acme/mbert")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_ENDPOINT", "http://127.0.0.1:9")  # nothing listens: only the cache can answer
    _, again = hub.load("acme/mbert")
    assert (again.sha256, again.revision) == (first.sha256, first.revision)


def test_a_direct_url_is_streamed_and_cached(endpoint) -> None:
    url, seen = endpoint
    file_url = f"{url}/acme/t5/resolve/main/tokenizer.model"
    upload, fetched = hub.load(file_url)
    assert upload.kind == "SentencePiece .model" and fetched.origin == file_url and fetched.revision == ""
    asked = len(seen)
    hub.load(file_url)
    assert len(seen) == asked  # from the playground's cache


@pytest.mark.parametrize(("text", "message"), [
    ("acme/gated", "acme/gated is gated: accept its terms"),
    ("acme/nope", "acme/nope is not on the Hub, or it is private"),
    ("acme/mbert@v9", "acme/mbert has no revision 'v9'"),
    ("acme/readme-only", "acme/readme-only has no tokenizer file (looked for tokenizer.json"),
    ("acme/huge", "acme/huge/tokenizer.json is 200.0 MB; tokenizer files up to 64 MB are read."),
    ("acme/not-a-tokenizer", "is JSON but not a tokenizer"),
])
def test_each_failure_is_one_sentence(endpoint, text: str, message: str) -> None:
    with pytest.raises(ValueError) as failure:
        hub.load(text)
    assert message in str(failure.value) and "\n" not in str(failure.value)


def test_a_file_over_the_limit_is_never_downloaded(endpoint) -> None:
    _, seen = endpoint
    with pytest.raises(hub.HubFailed, match="MB are read"):
        hub.load("acme/huge")
    assert ("GET", "/acme/huge/resolve/main/tokenizer.json") not in seen
    assert ("HEAD", "/acme/huge/resolve/main/tokenizer.json") in seen


def test_a_direct_url_over_the_limit_is_cut(endpoint) -> None:
    url, _ = endpoint
    with pytest.raises(hub.HubFailed, match="is over 1 MB"):
        hub.fetch(hub.parse_ref(f"{url}/acme/mbert/resolve/main/tokenizer.json"), max_bytes=1_000_000)


def test_no_network_is_one_sentence_at_once(endpoint, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_ENDPOINT", "http://127.0.0.1:9")
    with pytest.raises(hub.HubFailed, match="The Hub cannot be reached for acme/mbert"):
        hub.load("acme/mbert")


def test_no_network_reads_what_an_earlier_fetch_cached(endpoint, monkeypatch: pytest.MonkeyPatch) -> None:
    """HF_HUB_OFFLINE unset and the Hub unreachable: the cached file, as huggingface_hub itself would give it."""
    _, first = hub.load("acme/mbert")
    monkeypatch.setenv("HF_ENDPOINT", "http://127.0.0.1:9")  # nothing listens
    _, again = hub.load("acme/mbert")
    assert (again.sha256, again.revision, again.config) == (first.sha256, first.revision, first.config)
    with pytest.raises(hub.HubFailed, match="The Hub cannot be reached for acme/t5"):
        hub.load("acme/t5")  # never fetched: the sentence says the Hub could not be reached


def test_offline_and_not_cached_is_one_sentence(endpoint, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    with pytest.raises(hub.HubFailed, match="not in the Hugging Face cache and HF_HUB_OFFLINE is set"):
        hub.load("acme/mbert")


@pytest.mark.parametrize("url", ["http://127.0.0.1:9/tokenizer.json", "http://localhost/x.json",
                                 "http://169.254.169.254/latest/meta-data", "http://10.0.0.1/t.json",
                                 "http://[::1]/t.json", "file:///etc/passwd"])
def test_a_url_on_this_machine_or_a_private_network_is_refused(url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PLAYGROUND_ALLOW_LOCAL_URLS", raising=False)
    with pytest.raises(hub.HubFailed, match="only public addresses are fetched|not an http"):
        hub.fetch(hub.HubRef("", url=url), max_bytes=1000)


def test_a_redirect_to_this_machine_is_refused(endpoint, monkeypatch: pytest.MonkeyPatch) -> None:
    """A public address that redirects inward is checked again at each hop (here: the first hop is allowed)."""
    url, _ = endpoint
    checked: list[str] = []
    real_check = hub._check_public

    def check(address: str) -> None:
        checked.append(address)
        if len(checked) > 1:
            monkeypatch.delenv("PLAYGROUND_ALLOW_LOCAL_URLS")
        real_check(address)

    monkeypatch.setattr(hub, "_check_public", check)
    with pytest.raises(hub.HubFailed, match="only public addresses"):
        hub.fetch(hub.parse_ref(f"{url}/redirect/acme/t5/resolve/main/tokenizer.model"), max_bytes=10**7)
    assert len(checked) == 2


def test_the_users_token_is_sent_by_the_library_and_stored_nowhere(endpoint, monkeypatch: pytest.MonkeyPatch,
                                                                    tmp_path) -> None:
    """huggingface_hub reads the token from its usual place (HF_TOKEN here); we never read or write it."""
    from tests import hub_server

    sent: list[str] = []
    answer = hub_server._Hub._answer

    def recording(self, *, body: bool) -> None:
        sent.append(self.headers.get("Authorization", ""))
        answer(self, body=body)

    monkeypatch.setattr(hub_server._Hub, "_answer", recording)
    monkeypatch.setenv("HF_TOKEN", "hf_playground_test_token")
    hub.load("acme/t5")
    assert sent and all(value == "Bearer hf_playground_test_token" for value in sent)
    written = [p for p in tmp_path.rglob("*") if p.is_file() and b"hf_playground_test_token" in p.read_bytes()]
    assert written == []
