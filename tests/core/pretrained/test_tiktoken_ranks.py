"""core.pretrained.vocab_files.read_tiktoken_ranks: a ``.tiktoken`` file (base64 token, space, rank per line) read back."""

from __future__ import annotations

import base64
from pathlib import Path

import pytest

from core.pretrained import vocab_files as vf

RANKS = {b"a": 0, b"b": 1, b" ": 2, b"ab": 3, b"\xff\xfe": 4, "é".encode(): 5, b"\n": 7}


def test_ranks_read_back_as_written(tmp_path: Path) -> None:
    path = tmp_path / "small.tiktoken"
    path.write_bytes(b"".join(base64.b64encode(t) + b" %d\n" % r for t, r in RANKS.items()))
    assert vf.read_tiktoken_ranks(path) == RANKS


def test_blank_lines_are_skipped(tmp_path: Path) -> None:
    path = tmp_path / "blank.tiktoken"
    path.write_bytes(b"\n".join(base64.b64encode(t) + b" %d" % r for t, r in RANKS.items()) + b"\n\n")
    assert vf.read_tiktoken_ranks(path) == RANKS


@pytest.mark.parametrize("content", [b"YQ== 0\nYg==\n", b"YQ== 0\nYg== 1 2\n", b"YQ== 0 1\n \n", b"YQ== x\n",
                                     b"YQ== 0 1\nYg==\n", b"YQ== 0 1\nYg== 2 YQ==\n"])
def test_a_line_without_exactly_a_token_and_a_rank_is_refused(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "bad.tiktoken"
    path.write_bytes(content)
    with pytest.raises(ValueError):
        vf.read_tiktoken_ranks(path)


# -- the derived copy of the parsed ranks (core.fetch.derived) ----------------------------------------


def _small_file(tmp_path: Path) -> Path:
    path = tmp_path / "small.tiktoken"
    path.write_bytes(b"".join(base64.b64encode(t) + b" %d\n" % r for t, r in RANKS.items()))
    return path


def _copies(cache: Path) -> list[Path]:
    return sorted((cache / "derived" / "tiktoken-ranks").glob("*"))


def test_the_first_read_keeps_a_copy_and_the_next_reads_it_not_the_file(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("PLAYGROUND_CACHE_DIR", str(tmp_path / "cache"))
    path = _small_file(tmp_path)
    assert vf.cached_tiktoken_ranks(path, "ab" * 32) == RANKS
    assert [p.name.split(".")[0] for p in _copies(tmp_path / "cache")] == ["ab" * 32]
    monkeypatch.setattr(vf, "read_tiktoken_ranks", lambda _: pytest.fail("the source was parsed again"))
    assert vf.cached_tiktoken_ranks(path, "ab" * 32) == RANKS


@pytest.mark.parametrize("damage", [
    lambda data: data[:-3],  # truncated
    lambda data: data[:-1] + bytes([data[-1] ^ 1]),  # one bit flipped
    lambda data: b"not a derived file",
])
def test_a_damaged_copy_is_ignored_and_written_again(tmp_path: Path, monkeypatch, damage) -> None:
    monkeypatch.setenv("PLAYGROUND_CACHE_DIR", str(tmp_path / "cache"))
    path = _small_file(tmp_path)
    vf.cached_tiktoken_ranks(path, "cd" * 32)
    [copy] = _copies(tmp_path / "cache")
    good = copy.read_bytes()
    copy.write_bytes(damage(good))
    assert vf.cached_tiktoken_ranks(path, "cd" * 32) == RANKS
    assert copy.read_bytes() == good


def test_a_copy_holding_anything_but_bytes_to_int_is_ignored(tmp_path: Path, monkeypatch) -> None:
    import marshal

    from core.fetch import derived

    monkeypatch.setenv("PLAYGROUND_CACHE_DIR", str(tmp_path / "cache"))
    path = _small_file(tmp_path)
    vf.cached_tiktoken_ranks(path, "ef" * 32)
    [copy] = _copies(tmp_path / "cache")
    for wrong in ({"a": 0}, {b"a": "0"}, [b"a", 0], {b"a": 0.5}):
        derived.write_derived(copy, marshal.dumps(wrong))
        assert vf.cached_tiktoken_ranks(path, "ef" * 32) == RANKS


def test_an_unwritable_cache_still_reads_the_file(tmp_path: Path, monkeypatch) -> None:
    blocker = tmp_path / "cache"
    blocker.write_text("a file where the cache folder should be")
    monkeypatch.setenv("PLAYGROUND_CACHE_DIR", str(blocker))
    assert vf.cached_tiktoken_ranks(_small_file(tmp_path), "01" * 32) == RANKS


@pytest.mark.parametrize("key", ["cl100k_base", "o200k_base"])
def test_a_registry_tokenizer_built_from_the_kept_copy_gives_the_same_ids(tmp_path: Path, monkeypatch, key) -> None:
    from core.pretrained.adapter import TokenizerUnavailable
    from core.pretrained.registry import load

    text = "Tokenizers cut text: naïve café, 日本語のテキスト, 12345 🙂 <|endoftext|>\n\tdef f(x): return x"
    monkeypatch.setenv("PLAYGROUND_OFFLINE", "1")  # no test downloads
    try:
        reference = load(key)  # whatever the cache held
    except TokenizerUnavailable as exc:
        pytest.skip(f"{key} unavailable: {exc.reason}")
    monkeypatch.setenv("PLAYGROUND_CACHE_DIR", str(tmp_path / "cache"))
    first = load(key)  # parses the file, keeps the copy
    assert len(_copies(tmp_path / "cache")) == 1
    monkeypatch.setattr(vf, "read_tiktoken_ranks", lambda _: pytest.fail("the source was parsed again"))
    second = load(key)  # from the copy
    assert second.mergeable_ranks == first.mergeable_ranks
    for allow in (False, True):
        ids = reference.text_ids(text, allow_special=allow)
        assert first.text_ids(text, allow_special=allow) == ids == second.text_ids(text, allow_special=allow)
    assert second.encode(text) == reference.encode(text)
