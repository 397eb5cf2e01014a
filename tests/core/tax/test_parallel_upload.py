"""core.tax.parallel_upload: your own parallel corpus, read strictly, with one-sentence reasons."""

from __future__ import annotations

import json

import pytest

from core.tax.parallel_upload import parallel_from_upload


def test_tsv_with_ids_csv_with_quotes_jsonl_and_text_files_give_the_same_corpus() -> None:
    tsv = parallel_from_upload([("c.tsv", "id\ten\thi\ns1\t\"Hi.\tदुनिया\ns2\tBye.\tनमस्ते\n".encode())])
    assert tsv.codes() == ("en", "hi") and tsv.segment_ids == ("s1", "s2")
    assert tsv.segments["en"]["s1"] == '"Hi.' and tsv.language("hi").script == "Deva"
    csv = parallel_from_upload([("c.csv", b'en,es\n"Hello, you.",Hola.\n')])
    assert csv.segments["en"]["1"] == "Hello, you." and csv.default_base == "en"
    rows = [{"id": "a", "lang": "en", "text": "One"}, {"id": "a", "lang": "ar", "text": "واحد"}]
    jsonl = parallel_from_upload([("c.jsonl", "\n".join(json.dumps(r) for r in rows).encode())])
    assert jsonl.language("ar").direction == "rtl" and jsonl.text("en") == "One"
    files = parallel_from_upload([("en.txt", b"One\nTwo\n"), ("de.txt", b"Eins\nZwei\n\n")])
    assert files.segments["de"] == {"1": "Eins", "2": "Zwei"}
    assert files.fingerprint != tsv.fingerprint and files.key.startswith("upload:")


@pytest.mark.parametrize(("files", "message"), [
    ([("c.tsv", b"en\tes\nHi\t\n")], "row 2 has no es text"),
    ([("c.tsv", b"en\tes\nHi\tHola\tX\n")], "row 2 has 3 cells"),
    ([("c.tsv", b"id\ten\tes\n1\ta\tb\n1\tc\td\n")], "used twice"),
    ([("c.tsv", b"en\ten\na\tb\n")], "more than once"),
    ([("c.tsv", b"en\tes\n")], "at least one row"),
    ([("c.tsv", b"e n\tes\na\tb\n")], "not a language code"),
    ([("c.tsv", b"en\tes\n\xff\tb\n")], "UTF-8"),
    ([("c.jsonl", b'{"id": "1", "lang": "en", "text": "a"}\n{"id": "1", "lang": "en", "text": "b"}\n')],
     "appears twice"),
    ([("c.jsonl", b'{"id": "1", "lang": "en", "text": "a"}\n{"id": "2", "lang": "es", "text": "b"}\n')],
     "has no segment"),
    ([("c.jsonl", b"not json\n")], "line 1 is not JSON"),
    ([("c.jsonl", b'{"id": "1", "text": "a"}\n')], "needs"),
    ([("en.txt", b"a\nb\n"), ("es.txt", b"a\n")], "not aligned"),
    ([("en.txt", b"a\n\nb\n"), ("es.txt", b"a\nb\nc\n")], "line 2 is empty"),
    ([("en.txt", b"a\n"), ("x.tsv", b"en\n")], "not a mix"),
    ([("en.txt", b"a\n")], "at least two languages"),
    ([], "upload a"),
])
def test_bad_uploads_get_one_sentence(files: list[tuple[str, bytes]], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parallel_from_upload(files)


def test_the_size_limit_is_the_bytes_read() -> None:
    with pytest.raises(ValueError, match="the limit is 10"):
        parallel_from_upload([("c.tsv", b"en\tes\n" + b"a\tb\n" * 5)], max_bytes=10)
