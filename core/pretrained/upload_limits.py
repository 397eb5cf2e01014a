"""How much an uploaded tokenizer file may ask of the server: numbers in proportion to its size.

A file states numbers that size tables: the tiktoken adapter keeps a list as long as the largest
rank, Tekken's special ids are filled in up to the count its config declares, and every special
token becomes one branch of a regular expression tiktoken compiles (about 4.5 KB each). A 2 KB
rank file with one rank of 100,000,000 held 1.5 GB; a 15 KB Tekken file declaring 400,000 special
tokens took 2 GB. So ids may run at most ``2 × tokens + ID_SLACK`` (real files have small gaps:
p50k leaves one), and a file may declare at most ``MAX_SPECIAL_TOKENS`` special tokens. Checked
before anything is built; each refusal is one sentence with the number and the limit.
"""

from __future__ import annotations

from collections.abc import Iterable

ID_SLACK = 1_024
MAX_SPECIAL_TOKENS = 4_096  # Llama 4, with the most of any tokenizer here, has 2,048


class LimitExceeded(ValueError):
    """A number in the file is out of proportion to its size; the message says which and the limit."""


def id_limit(entries: int) -> int:
    """The largest id (or rank) a file with ``entries`` tokens may use.

    >>> id_limit(256)
    1536
    """
    return 2 * entries + ID_SLACK


def check_ids(name: str, ids: Iterable[int], entries: int, *, what: str = "id") -> None:
    """``LimitExceeded`` unless every id is in ``0 … id_limit(entries)``.

    >>> check_ids("x.tiktoken", [0, 100_000_000], 2, what="rank")
    Traceback (most recent call last):
    ...
    core.pretrained.upload_limits.LimitExceeded: x.tiktoken: its largest rank is 100,000,000 but it holds only 2 tokens; ranks may go up to twice the number of tokens plus 1,024 (here 1,028), so a small file cannot make the server reserve room for tokens it does not have.
    """
    ids = list(ids)
    if not ids:
        return
    smallest, largest = min(ids), max(ids)
    if smallest < 0:
        raise LimitExceeded(f"{name}: it has a negative {what} ({smallest:,}); {what}s start at 0.")
    limit = id_limit(entries)
    if largest > limit:
        raise LimitExceeded(
            f"{name}: its largest {what} is {largest:,} but it holds only {entries:,} tokens; {what}s may go up to "
            f"twice the number of tokens plus {ID_SLACK:,} (here {limit:,}), so a small file cannot make the server "
            "reserve room for tokens it does not have."
        )


def check_special_count(name: str, count: int) -> None:
    """``LimitExceeded`` unless ``0 <= count <= MAX_SPECIAL_TOKENS``.

    >>> check_special_count("tekken.json", 1_000)
    """
    if count < 0:
        raise LimitExceeded(f"{name}: it declares a negative number of special tokens ({count:,}).")
    if count > MAX_SPECIAL_TOKENS:
        raise LimitExceeded(
            f"{name}: it declares {count:,} special tokens; at most {MAX_SPECIAL_TOKENS:,} are read (Llama 4, with "
            "the most of any tokenizer here, has 2,048), because each one costs the server memory and time."
        )
