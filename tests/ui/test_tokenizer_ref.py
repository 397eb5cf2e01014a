"""One path for every tokenizer: a registry key and an upload both resolve to a ``TokenizerRef``, whose
results land in the right cache; another session cannot resolve an upload; deferred results work
outside a script run."""

from __future__ import annotations

import hashlib

import pytest
from streamlit.testing.v1 import AppTest

from ui import cache, offline, uploads
from ui.spans import DEFAULT_LIMIT

TEXT = "hello worlds! a b hello"


def tiny_vocab() -> bytes:
    return "\n".join(["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "hello", "world", "##s", "!", "a", "b"]).encode()


def upload_session() -> None:
    """A session that uploads the tiny vocabulary once, resolves it each run and keeps what it drew."""
    import streamlit as st

    from ui import uploads

    if "slot" not in st.session_state:
        upload = uploads.add_upload(st.session_state["data"], "tiny vocab.txt", pattern="", pattern_name="")
        st.session_state["slot"] = uploads.slot_of(upload)
    ref = uploads.resolve(st.session_state["slot"])
    text = st.session_state["text"]
    st.session_state["ref"] = ref
    st.session_state["analysis"] = ref.analyze(text, False)
    st.session_state["later"] = ref.tokens_later(text, False)
    st.session_state["results"] = uploads._results()


def other_session() -> None:
    """A second browser session that knows the first one's upload key (from a shared link, say)."""
    import streamlit as st

    from ui import uploads

    ref = uploads.resolve(st.session_state["slot"])
    st.session_state["ref"] = ref
    st.session_state["names"] = uploads.names()
    try:
        ref.analyze("hello", False)
    except ValueError as exc:
        st.session_state["refused"] = str(exc)


@pytest.fixture(scope="module")
def uploaded() -> AppTest:
    at = AppTest.from_function(upload_session, default_timeout=120)
    at.session_state["data"], at.session_state["text"] = tiny_vocab(), TEXT
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_an_upload_resolves_to_a_ref_named_by_its_content(uploaded: AppTest) -> None:
    ref, slot = uploaded.session_state["ref"], uploaded.session_state["slot"]
    sha = hashlib.sha256(tiny_vocab()).hexdigest()
    assert (ref.key, ref.origin, ref.sha256, ref.available) == (slot, "upload", sha, True)
    assert ref.digest == slot == f"upload:{sha[:16]}"  # a vocab.txt has no pattern to add to its name
    assert ref.name == "📄 tiny vocab.txt"


def test_an_upload_is_analyzed_into_the_upload_cache_only(uploaded: AppTest) -> None:
    ref, analysis = uploaded.session_state["ref"], uploaded.session_state["analysis"]
    results = uploaded.session_state["results"]
    assert ref.results is results and ref.drawings is results  # bounded, ten minutes (UPLOAD_RESULTS_*)
    name = ("analysis", ref.digest, cache.text_digest(TEXT), False)
    assert results.peek(name) is analysis and cache.analyses().peek(name) is None
    assert analysis.key == ref.key and analysis.counts.tokens == 7 and analysis.added == ("[CLS]", "[SEP]")
    assert ref.analyze(TEXT, False) is analysis  # the same text again is the cached result


def test_another_session_cannot_resolve_an_upload(uploaded: AppTest) -> None:
    other = AppTest.from_function(other_session, default_timeout=60)
    other.session_state["slot"] = uploaded.session_state["slot"]
    other.run()
    assert not other.exception, [e.value for e in other.exception]
    ref = other.session_state["ref"]
    assert not ref.available and ref.origin == "upload" and ref.sha256 is None
    assert "removed; upload it again" in ref.tokenizer.reason
    assert "unavailable" in other.session_state["refused"]
    assert uploaded.session_state["slot"] not in other.session_state["names"]


def test_deferred_tokens_work_outside_a_run(uploaded: AppTest) -> None:
    """A download's data function is called outside the session's run: the ref captured all it needs."""
    ref = uploaded.session_state["ref"]
    tokens = uploaded.session_state["later"]()
    assert list(tokens) == list(ref.tokenizer.encode(TEXT))


def test_the_offline_page_of_an_upload_is_built_outside_a_run(uploaded: AppTest) -> None:
    """``offline.download_button`` builds the page when it is asked for, outside the run: an uploaded
    column once looked its tokenizer up in the session state there."""
    ref, analysis = uploaded.session_state["ref"], uploaded.session_state["analysis"]
    page = offline.playground_page({ref.key: analysis}, {ref.key: ref}, TEXT, allow_special=False,
                                   show_whitespace=False, raw_pieces=False, per_row=2, link="http://x/")
    assert "7 tokens" in page and "worlds" in page
    assert ref.drawings.peek(("spans", ref.digest, cache.text_digest(TEXT),
                              (False, False, False, DEFAULT_LIMIT, None))) is not None


def test_a_registry_key_resolves_to_a_ref_shared_by_every_session() -> None:
    """Outside a run no session exists: a registry key still resolves, to the process-wide caches."""
    from core import pretrained

    ref = uploads.resolve("cl100k_base")
    if not ref.available:
        pytest.skip("cl100k_base is not available here")
    pin = pretrained.registry()["cl100k_base"].files[0].sha256
    assert (ref.key, ref.origin, ref.sha256, ref.digest) == ("cl100k_base", "registry", pin, f"cl100k_base@{pin[:16]}")
    assert ref.results is cache.analyses() and ref.drawings is cache.drawings()
    text = "the one path, registry side"
    analysis = ref.analyze(text, False)
    assert cache.analyses().peek(("analysis", ref.digest, cache.text_digest(text), False)) is analysis
    assert cache.analyze("cl100k_base", text, False) is analysis  # the registry-only pages share it
    assert ref.tokens_later(text, False)() == analysis.head
    assert ref == cache.registry_ref("cl100k_base", loaded=True)  # identity by key and content, not object


def test_two_registry_keys_sharing_a_file_do_not_share_results() -> None:
    """o200k_base and o200k_harmony read one pinned file with other special tokens."""
    base, harmony = cache.registry_ref("o200k_base", loaded=True), cache.registry_ref("o200k_harmony", loaded=True)
    if not (base.available and harmony.available):
        pytest.skip("o200k_base or o200k_harmony is not available here")
    assert base.sha256 == harmony.sha256 and base.digest != harmony.digest
    text = "<|endoftext|> then <|return|>"
    assert base.analyze(text, True).ids != harmony.analyze(text, True).ids


def test_an_unavailable_registry_tokenizer_refuses_in_one_sentence() -> None:
    ref = cache.registry_ref("no_such_tokenizer", loaded=True)
    assert not ref.available and ref.digest == "no_such_tokenizer"
    with pytest.raises(ValueError, match="not in the tokenizer registry"):
        ref.analyze("hello", False)
