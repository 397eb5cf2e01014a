"""Tables of the Unicode page as DataFrames: characters, odd characters, clusters that normalization changes.

Pure functions, tested as objects; ``st.dataframe`` draws them (it escapes cell text itself). Cells
show characters through ``core.text.unicode_info.visible``, so invisible ones are labels, not blanks.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from core.text.char_table import CharRow
from core.text.normalization import FORMS, ChangeRow
from core.text.odd_chars import FlaggedChar
from core.text.unicode_info import code_point, visible

CHAR_COLUMNS = ("#", "character", "code points", "names", "UTF-8 (hex)", "bytes", "notes")


def chars_frame(rows: Sequence[CharRow]) -> pd.DataFrame:
    """One row per grapheme cluster; "#" counts from 1 like the page numbers.

    >>> from core.text.char_table import char_rows
    >>> from core.text.unicode_info import grapheme_starts
    >>> chars_frame(char_rows("é", grapheme_starts("é"), 0, 1))["UTF-8 (hex)"].tolist()
    ['C3 A9']
    """
    return pd.DataFrame(
        [
            (row.index + 1, row.shown, row.code_points, row.names, row.utf8_hex, row.utf8_bytes, row.flags)
            for row in rows
        ],
        columns=list(CHAR_COLUMNS),
    )


def flags_frame(flags: Sequence[FlaggedChar]) -> pd.DataFrame:
    """One row per distinct odd character: what it is, how often, where first, and why it is listed."""
    return pd.DataFrame(
        [
            (visible(f.char), f.code_point, f.name, f.note, f.count, f.first)
            for f in flags
        ],
        columns=["character", "code point", "name", "why", "times", "first at (code point)"],
    )


def changes_frame(rows: Sequence[ChangeRow]) -> pd.DataFrame:
    """One row per distinct cluster some form changes; each cell the result and its code points.

    >>> from core.text.normalization import changed_clusters
    >>> changes_frame(changed_clusters("ß")).loc[0, "casefold"]
    'ss  (U+0073 U+0073)'
    """
    def cell(text: str) -> str:
        return f"{visible(text)}  ({' '.join(code_point(ch) for ch in text)})"

    return pd.DataFrame(
        [(cell(row.original), *(cell(row.results[form]) for form in FORMS), row.count) for row in rows],
        columns=["as typed", *FORMS, "times"],
    )
