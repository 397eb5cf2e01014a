"""The sentence texts of a CoNLL-U file (``# sent_id =`` and ``# text =``), keyed by sentence id.

A small strict reader rather than the ``conllu`` package: the language tax needs two comment lines
per sentence, and parsing every token line of twenty 2 MB treebanks only to drop them would take
seconds. Strict: every sentence (a block of lines up to a blank line) must have exactly one
``sent_id`` and one ``text``, ids must be unique, and the file must be UTF-8; anything else is a
``ValueError`` naming the line. Order in the file is kept (PUD's Icelandic lists its sentences in
another order than the others, so callers align by id, never by position).

What it does not do: read tokens, lemmas or trees.
"""

from __future__ import annotations

from pathlib import Path

_ID, _TEXT = "# sent_id =", "# text ="


def sentence_texts(data: bytes, *, name: str = "the file") -> dict[str, str]:
    """``{sent_id: text}`` of a CoNLL-U document, in file order.

    >>> sentence_texts(b"# sent_id = a1\\n# text = Hi there.\\n1\\tHi\\n\\n")
    {'a1': 'Hi there.'}
    """
    try:
        lines = data.decode("utf-8").splitlines()
    except UnicodeDecodeError as exc:
        raise ValueError(f"{name} is not UTF-8 (byte {exc.start}); CoNLL-U files are UTF-8") from None
    out: dict[str, str] = {}
    sent_id: str | None = None
    text: str | None = None
    start = 1
    for number, line in enumerate([*lines, ""], start=1):
        if not line.strip():
            if sent_id is not None or text is not None:
                _close(out, sent_id, text, name, start)
            sent_id, text, start = None, None, number + 1
        elif line.startswith(_ID):
            if sent_id is not None:
                raise ValueError(f"{name} line {number}: a second sent_id in one sentence")
            sent_id = line[len(_ID):].strip()
        elif line.startswith(_TEXT):
            if text is not None:
                raise ValueError(f"{name} line {number}: a second text in one sentence")
            text = line[len(_TEXT):].strip()
    return out


def _close(out: dict[str, str], sent_id: str | None, text: str | None, name: str, start: int) -> None:
    if not sent_id or text is None:
        missing = "sent_id" if not sent_id else "text"
        raise ValueError(f"{name}: the sentence starting at line {start} has no '# {missing} =' line")
    if sent_id in out:
        raise ValueError(f"{name} line {start}: sentence id {sent_id!r} appears twice")
    out[sent_id] = text


def read_sentence_texts(path: Path) -> dict[str, str]:
    """``sentence_texts`` of a file."""
    return sentence_texts(path.read_bytes(), name=path.name)
