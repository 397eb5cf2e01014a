"""core.fetch.derived: files computed once from a pinned file, kept whole and checksummed in the cache folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.fetch import derived


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("PLAYGROUND_CACHE_DIR", str(tmp_path))
    return tmp_path


def test_a_payload_reads_back_as_written(cache: Path) -> None:
    path = derived.derived_path("kind", "abc.v1")
    assert path == cache / "derived" / "kind" / "abc.v1"
    assert derived.read_derived(path) is None  # absent
    assert derived.write_derived(path, b"\x00payload\xff")
    assert derived.read_derived(path) == b"\x00payload\xff"
    assert [p.name for p in path.parent.iterdir()] == ["abc.v1"]  # no temporary file left behind


@pytest.mark.parametrize("damage", [
    lambda data: data[:-1], lambda data: data[:-1] + bytes([data[-1] ^ 1]), lambda data: b"x" + data[1:], lambda data: b"",
])
def test_a_damaged_file_reads_as_absent(cache: Path, damage) -> None:
    path = derived.derived_path("kind", "abc")
    derived.write_derived(path, b"payload" * 10)
    path.write_bytes(damage(path.read_bytes()))
    assert derived.read_derived(path) is None


def test_an_unwritable_cache_is_no_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "cache"
    blocker.write_text("a file where the cache folder should be")
    monkeypatch.setenv("PLAYGROUND_CACHE_DIR", str(blocker))
    path = derived.derived_path("kind", "abc")
    assert derived.write_derived(path, b"payload") is False
    assert derived.read_derived(path) is None


@pytest.mark.parametrize(("kind", "name"), [("..", "x"), ("kind", ".."), ("a/b", "x"), ("kind", "x/../../y"), ("", "x")])
def test_a_name_cannot_leave_the_derived_folder(cache: Path, kind: str, name: str) -> None:
    with pytest.raises(ValueError):
        derived.derived_path(kind, name)


def test_made_once_makes_a_value_once_for_every_process_and_again_when_unreadable(cache: Path) -> None:
    made: list[bytes] = []

    def make(value: bytes):
        return lambda: made.append(value) or value

    assert derived.made_once("kind", ("v1", "x"), make(b"first"), dump=bytes, load=bytes) == b"first"
    assert derived.made_once("kind", ("v1", "x"), make(b"again"), dump=bytes, load=bytes) == b"first"  # read back
    assert derived.made_once("kind", ("v2", "x"), make(b"other"), dump=bytes, load=bytes) == b"other"  # other parts
    assert derived.made_once("kind", ("v1", "x"), make(b"anew"), dump=bytes, load=lambda data: None) == b"anew"
    assert made == [b"first", b"other", b"anew"]
