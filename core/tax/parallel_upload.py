"""Your own parallel corpus: uploaded files read strictly into a ``ParallelCorpus``.

Three forms, told apart by the file names:

- one ``.tsv`` or ``.csv``: a header of language codes, one column per language, one row per
  segment; a first column named ``id`` (or ``sent_id``, ``segment``) gives the segment ids, else
  they are the row numbers;
- one ``.jsonl``: one object a line, ``{"id": ..., "lang": ..., "text": ...}``;
- several ``.txt`` files named ``<code>.txt``, one segment a line, aligned line by line.

Strict: UTF-8 text (``core.text.textio``), language codes of letters, digits, ``-`` and ``_``, no
duplicate language, id or (id, language), and every language has every segment (an empty cell or
line is a missing segment): each failure is one ``ValueError`` sentence naming the file and the
row or line, and saying how to fix it. Sizes are bounded by the bytes read, never by a number in a file.
The script of each language is read off its letters (``core.tax.udhr_html.dominant_script``).

Session-only: nothing is written anywhere (the UI keeps the corpus in the session).
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import re
from collections.abc import Sequence
from pathlib import PurePath

from core.tax.parallel_types import ParallelCorpus, ParallelLanguage
from core.tax.udhr_html import dominant_script
from core.text.textio import MAX_UPLOAD_BYTES, decode_text_upload

MAX_LANGUAGES = 600
_CODE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,39}")
_ID_COLUMNS = ("id", "sent_id", "segment")
_RTL = {"Arab", "Hebr", "Syrc", "Thaa", "Adlm", "Nkoo"}


def parallel_from_upload(files: Sequence[tuple[str, bytes]], *, max_bytes: int = MAX_UPLOAD_BYTES) -> ParallelCorpus:
    """The corpus in ``files`` (name, bytes), or a one-sentence ``ValueError`` saying what to fix.

    >>> corpus = parallel_from_upload([("mine.tsv", b"en\\tes\\nHello.\\tHola.\\n")])
    >>> corpus.codes(), corpus.text("es")
    (('en', 'es'), 'Hola.')
    """
    if not files:
        raise ValueError("upload a .tsv, .csv or .jsonl file, or one .txt file per language")
    total = sum(len(data) for _, data in files)
    if total > max_bytes:
        raise ValueError(f"the upload is {total:,} bytes; the limit is {max_bytes:,}: upload fewer segments")
    suffixes = {PurePath(name).suffix.lower() for name, _ in files}
    if suffixes == {".txt"}:
        segments = _from_text_files(files)
    elif len(files) == 1 and suffixes <= {".tsv", ".csv"}:
        segments = _from_table(*files[0])
    elif len(files) == 1 and suffixes == {".jsonl"}:
        segments = _from_jsonl(*files[0])
    else:
        raise ValueError("upload one .tsv, .csv or .jsonl file, or several .txt files named by language "
                         "(en.txt, es.txt), not a mix")
    return _corpus(segments, files)


def _text(name: str, data: bytes) -> str:
    return decode_text_upload(data, name=name, max_bytes=MAX_UPLOAD_BYTES)


def _code(value: str, where: str) -> str:
    code = value.strip()
    if not _CODE.fullmatch(code):
        raise ValueError(f"{where}: {code[:40]!r} is not a language code; use letters, digits, - or _ (en, zh-Hans)")
    return code


def _from_table(name: str, data: bytes) -> dict[str, dict[str, str]]:
    text = _text(name, data)
    delimiter = "\t" if name.lower().endswith(".tsv") else ","
    # subtle: TSV cells may begin with a quotation mark, so TSV is read without quoting; CSV uses it
    quoting = csv.QUOTE_NONE if delimiter == "\t" else csv.QUOTE_MINIMAL
    rows = [row for row in csv.reader(io.StringIO(text), delimiter=delimiter, quoting=quoting) if any(row)]
    if len(rows) < 2:
        raise ValueError(f"{name} needs a header of language codes and at least one row of text")
    header = [cell.strip() for cell in rows[0]]
    has_ids = header[0].lower() in _ID_COLUMNS
    codes = [_code(c, f"{name} header") for c in header[1 if has_ids else 0:]]
    _unique(codes, f"{name} header", "language")
    if not codes:
        raise ValueError(f"{name} has no language column; its header names one language code per column")
    segments: dict[str, dict[str, str]] = {code: {} for code in codes}
    seen: set[str] = set()
    for number, row in enumerate(rows[1:], start=2):
        if len(row) != len(header):
            raise ValueError(f"{name} row {number} has {len(row)} cells, the header {len(header)}; "
                             "one cell per column (check for a stray tab or comma)")
        sid = row[0].strip() if has_ids else str(number - 1)
        if not sid or sid in seen:
            raise ValueError(f"{name} row {number}: the id {sid!r} is {'empty' if not sid else 'used twice'}; "
                             "give every row its own id")
        seen.add(sid)
        for code, cell in zip(codes, row[1 if has_ids else 0:], strict=True):
            if not cell.strip():
                raise ValueError(f"{name} row {number} has no {code} text; fill it in or remove the row")
            segments[code][sid] = cell.strip()
    return segments


def _from_jsonl(name: str, data: bytes) -> dict[str, dict[str, str]]:
    segments: dict[str, dict[str, str]] = {}
    for number, line in enumerate(_text(name, data).splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            raise ValueError(f"{name} line {number} is not JSON; write one {{\"id\", \"lang\", \"text\"}} "
                             "object a line") from None
        if not isinstance(row, dict) or not all(isinstance(row.get(k), (str, int)) for k in ("id", "lang", "text")):
            raise ValueError(f"{name} line {number} needs \"id\", \"lang\" and \"text\" (strings)")
        code = _code(str(row["lang"]), f"{name} line {number}")
        sid, text = str(row["id"]).strip(), str(row["text"]).strip()
        texts = segments.setdefault(code, {})
        if sid in texts:
            raise ValueError(f"{name} line {number}: id {sid!r} appears twice for {code}; each id once per language")
        if not text:
            raise ValueError(f"{name} line {number}: the {code} text of {sid!r} is empty")
        texts[sid] = text
        if len(segments) > MAX_LANGUAGES:
            raise ValueError(f"{name} has more than {MAX_LANGUAGES} languages")
    if not segments:
        raise ValueError(f"{name} has no segments")
    _all_present(segments, name)
    return segments


def _from_text_files(files: Sequence[tuple[str, bytes]]) -> dict[str, dict[str, str]]:
    codes = [_code(PurePath(name).stem, name) for name, _ in files]
    _unique(codes, "the file names", "language")
    lines = {code: _text(name, data).splitlines() for code, (name, data) in zip(codes, files, strict=True)}
    for ls in lines.values():  # blank lines at a file's end are not segments
        while ls and not ls[-1].strip():
            ls.pop()
    counts = {code: len(ls) for code, ls in lines.items()}
    if len(set(counts.values())) > 1:
        detail = ", ".join(f"{code}.txt {n:,}" for code, n in counts.items())
        raise ValueError(f"the files are not aligned: one segment a line, and they have {detail} lines")
    for code, ls in lines.items():
        for number, line in enumerate(ls, start=1):
            if not line.strip():
                raise ValueError(f"{code}.txt line {number} is empty: a missing segment; fill it in or remove "
                                 "that line from every file")
    return {code: {str(n): line.strip() for n, line in enumerate(ls, start=1)} for code, ls in lines.items()}


def _unique(values: list[str], where: str, what: str) -> None:
    twice = sorted({v for v in values if values.count(v) > 1})
    if twice:
        raise ValueError(f"{where} name the {what} {', '.join(twice)} more than once; each only once")


def _all_present(segments: dict[str, dict[str, str]], name: str) -> None:
    ids = list(dict.fromkeys(i for texts in segments.values() for i in texts))
    for code, texts in segments.items():
        missing = [i for i in ids if i not in texts]
        if missing:
            raise ValueError(f"{name}: {code} has no segment {missing[0]!r}"
                             + (f" (and {len(missing) - 1:,} more)" if len(missing) > 1 else "")
                             + "; every language needs every id")


def _corpus(segments: dict[str, dict[str, str]], files: Sequence[tuple[str, bytes]]) -> ParallelCorpus:
    if len(segments) < 2:
        raise ValueError("a parallel corpus needs at least two languages")
    digest = hashlib.sha256()
    for name, data in sorted(files):
        digest.update(name.encode() + b"\0" + hashlib.sha256(data).digest())
    languages = []
    for code, texts in segments.items():
        script = dominant_script(" ".join(texts.values()), code)
        languages.append(ParallelLanguage(code, code, code, script, "rtl" if script in _RTL else "ltr",
                                          "from your upload"))
    ids = tuple(dict.fromkeys(i for texts in segments.values() for i in texts))
    title = files[0][0] if len(files) == 1 else f"{len(files)} aligned text files"
    base = "en" if "en" in segments else next(iter(segments))
    return ParallelCorpus(
        f"upload:{digest.hexdigest()[:16]}", f"Your corpus: {title}", "segment", tuple(languages), ids, segments,
        "yours", "uploaded in this session (kept in this browser session only)", default_base=base,
        fingerprint=digest.hexdigest(),
    )
