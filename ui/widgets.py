"""Widgets and blocks the pages share: CSS injection, text input with upload, tokenizer cards, ids view.

Each function draws into the current Streamlit container and returns plain values; the HTML it
shows comes from ``ui.spans`` (escaped there) or is escaped here.
"""

from __future__ import annotations

import html
import unicodedata
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

import streamlit as st

from core.text.textio import MAX_UPLOAD_BYTES, decode_text_upload
from core.tokens.roundtrip import Difference
from ui.cache import Analysis, Unavailable, retry
from ui.copy_block import copy_block
from ui.scripts import ASSETS_DIR  # the pages read their stylesheets through it
from ui.spans import render_ids, render_legend

SPANS_CSS = ASSETS_DIR / "spans.css"
IDS_SHOWN = 20_000  # ids drawn in the copy block (ui/copy_block.py); all of them are in the download
# Uploads longer than this skip the text area: a browser resends a text area's whole value on every
# rerun, and a few MB of it block the tab for seconds at each click. They get a read-only preview.
BIG_TEXT_CHARS = 100_000
PREVIEW_CHARS = 2_000

# Markdown's specials, and Streamlit's own: ":" and "/" start :red[colored text], :smile: emoji and
# :material/icons:, "&" an entity (&lt;), "@" an e-mail autolink. Any ASCII punctuation may be escaped.
_MARKDOWN_SPECIAL = str.maketrans({ch: "\\" + ch for ch in "\\`*_{}[]<>()#+-.!|~$:/&@"})


def md_escape(text: str) -> str:
    """``text`` with Markdown's special characters backslash-escaped, for labels and captions.

    >>> md_escape("r50k_base.tiktoken")
    'r50k\\\\_base\\\\.tiktoken'
    """
    return text.translate(_MARKDOWN_SPECIAL)


def sentence(message: str) -> str:
    """A library's or core's message (lower case, as exceptions are) as a sentence for the page.

    >>> sentence("the pasted text is empty: paste some text")
    'The pasted text is empty: paste some text.'
    """
    message = message.strip()
    if not message:
        return message
    message = message[0].upper() + message[1:]
    return message if message[-1] in ".!?" else message + "."


def inject_css() -> None:
    """Add the span styles to the page; call once per page run, before any spans are drawn.

    ``st.html`` with a path to a ``.css`` file sends only a style tag, which takes no room.
    """
    st.html(SPANS_CSS)


def apply_upload(
    data: bytes, name: str, *, text_key: str, big_key: str, error_key: str, note_key: str
) -> bool:
    """Put an uploaded file's text into ``text_key``, or its error into ``error_key``; True on success.

    A text over ``BIG_TEXT_CHARS`` goes to ``big_key`` instead (see ``big_text_preview``), leaving
    the text area's own text as it was; a short one clears ``big_key``.

    Subtle: on failure the text in ``text_key`` is left as it was, so a bad file loses nothing. Both
    messages are Markdown (``st.error`` and ``st.caption`` render it) with the file name escaped: a
    name is the user's text, and ``**x** [y](z) :red[w].txt`` must not become formatting or a link.
    """
    shown = md_escape(name)
    try:
        text = decode_text_upload(data, name=shown)
    except ValueError as exc:
        st.session_state[error_key] = str(exc)
        st.session_state[note_key] = ""
        return False
    if len(text) > BIG_TEXT_CHARS:
        st.session_state[big_key] = text
    else:
        st.session_state[text_key] = text
        st.session_state[big_key] = ""
    st.session_state[error_key] = ""
    st.session_state[note_key] = f"Loaded {shown} ({len(text):,} characters)."
    return True


def big_text_preview(text: str, *, big_key: str, button_key: str) -> None:
    """A read-only view of a long uploaded text, and a button that goes back to the text area."""
    st.markdown(f"**Text** — an uploaded text of {len(text):,} characters, too long to edit in the browser; "
                f"everything below covers all of it. The first {PREVIEW_CHARS:,} characters:")
    copy_block(text[:PREVIEW_CHARS], key=f"{button_key}_preview", height=170)
    st.button("Back to the editable text", key=button_key, on_click=_clear, args=(big_key,))


def _clear(key: str) -> None:
    st.session_state[key] = ""


def _on_upload(upload_key: str, text_key: str, big_key: str, error_key: str, note_key: str) -> None:
    uploaded = st.session_state.get(upload_key)
    if uploaded is None:  # the file was removed from the uploader: keep the text
        st.session_state[note_key] = ""
        st.session_state[error_key] = ""
        return
    apply_upload(
        uploaded.getvalue(), uploaded.name,
        text_key=text_key, big_key=big_key, error_key=error_key, note_key=note_key,
    )


def text_upload(*, upload_key: str, text_key: str, big_key: str, error_key: str, note_key: str) -> None:
    """A .txt uploader that replaces the text (``text_key``, or ``big_key`` when long); shows the
    error or note of the last upload.

    Subtle: a bigger file (or another type) is refused in the browser, before the server sees it:
    the uploader draws its chip with an error mark, and the server's note of the last file it did
    load would stay as it was. A style rule (CSS ``:has``) then hides that note and says, in the
    sidebar, that the file was refused and the text in use has not changed.
    """
    megabytes = max(1, MAX_UPLOAD_BYTES // 1_000_000)
    box = st.container(key=f"{upload_key}_box")
    box.html(
        f"<style>.st-key-{upload_key}_box:has([data-testid=stFileChipIconError]) .st-key-{upload_key}_note"
        "{display:none}"
        f".st-key-{upload_key}_box:has([data-testid=stFileChipIconError])::after{{display:block;"
        f'content:"That file was refused (over {megabytes} MB, or not a .txt file): the text in use is '
        'still the one before.";color:#a3152a;font-size:0.875rem;margin-top:0.25rem}</style>'
    )
    box.file_uploader(
        f"Upload a .txt file (up to {megabytes} MB)",
        type=["txt"],
        key=upload_key,
        on_change=_on_upload,
        args=(upload_key, text_key, big_key, error_key, note_key),
        max_upload_size=megabytes,
        help=f"UTF-8 text, up to {MAX_UPLOAD_BYTES:,} bytes; a bigger file is refused and drawn in red.",
    )
    if st.session_state.get(error_key):
        box.error(st.session_state[error_key], icon=":material/error:")
    elif st.session_state.get(note_key):
        box.container(key=f"{upload_key}_note").caption(st.session_state[note_key])


def span_legend() -> None:
    """A collapsed "how to read the spans" box: each style drawn once, with what it means.

    Presentation mode hides it (its key, assets/presentation.css): the speaker explains the pills,
    and its line is worth a line of tokens on a 1280x720 screen."""
    with st.container(key="span_legend"), st.expander("How to read the spans", icon=":material/help:"):
        st.html(render_legend())


def columns(spec: int | Sequence[float], **options: Any) -> list[Any]:
    """``st.columns(spec, **options)``, or in presentation mode one full-width container given once per
    column: side by side, a projector's type cuts labels off and squeezes charts, so they stack."""
    from ui import state

    if st.session_state.get(state.PRESENTATION):
        box = st.container()
        return [box] * (spec if isinstance(spec, int) else len(spec))
    return st.columns(spec, **options)


def grid(items: Sequence[Any], per_row: int) -> Iterator[tuple[Any, Any]]:
    """Pairs of (item, column) laying ``items`` out ``per_row`` to a row."""
    per_row = max(1, per_row)
    for start in range(0, len(items), per_row):
        row = items[start : start + per_row]
        columns = st.columns(per_row, gap="medium")
        yield from zip(row, columns, strict=False)


def failed_card(name: str, reason: str) -> None:
    """A column whose tokenizer failed on this text: its name and the sentence saying why."""
    st.markdown(f"#### {md_escape(name)}")
    st.error(md_escape(sentence(reason)), icon=":material/error:")


def lossy_note(unknown: int, difference: Difference | None = None, *, escape: Callable[[str], str] = md_escape) -> str:
    """The flag for a tokenizer whose round trip changes the text: the likely cause and, when known,
    the first characters it changed and where. Markdown by default; ``escape=str`` gives plain text.

    Subtle: no long unbreakable word ("decode(encode(text))"): a narrow column broke it mid-word.

    >>> lossy_note(3)
    'Lossy: the tokens decode to another text; 3 unknown tokens'
    >>> lossy_note(0, Difference(4, "ñ", "n"))
    'Lossy: the tokens decode to another text; at character 5, “ñ” came back as “n”; no unknown tokens, so it normalizes or drops characters'
    """
    note = "Lossy: the tokens decode to another text"
    if difference is not None:
        lost = f"“{escape(visible(difference.lost))}”"
        note += (f"; at character {difference.at + 1:,}, {lost} came back as “{escape(visible(difference.got))}”"
                 if difference.got else f"; at character {difference.at + 1:,}, {lost} was dropped")
    if unknown:
        return f"{note}; {unknown:,} unknown token{'s' if unknown != 1 else ''}"
    return f"{note}; no unknown tokens, so it normalizes or drops characters"


def visible(text: str) -> str:
    r"""``text`` with invisible and control characters written as ``U+XXXX``, so a lost one shows.

    >>> visible("a\u200db\n")
    'a U+200D b U+000A'
    """
    def one(ch: str) -> str:
        return f" U+{ord(ch):04X} " if unicodedata.category(ch) in ("Cf", "Cc", "Zs", "Zl", "Zp", "Mn", "Me") else ch

    return " ".join("".join(one(ch) for ch in text).split())


def unavailable_card(item: Unavailable, *, retry_key: str) -> None:
    """A greyed-out column for a tokenizer that could not be loaded, with its reason and a retry."""
    st.html(
        f'<div class="tp-unavailable"><strong>{html.escape(item.name, quote=True)}</strong>'
        f"<br>unavailable: {html.escape(item.reason, quote=True)}</div>"
    )
    st.button("Retry", key=retry_key, on_click=retry, args=(item.key,), icon=":material/refresh:")


@st.fragment
def ids_view(analyses: Mapping[str, Analysis], *, key_prefix: str) -> None:
    """One tab per tokenizer with its token ids in a block with a Copy button (ui/copy_block.py) (and a download when long).

    Only the open tab is drawn, and choosing another reruns this fragment alone.
    """
    if not analyses:
        return
    # tab labels are Markdown, and an uploaded tokenizer's name is its file's name: escaped, it stays text
    tabs = st.tabs([md_escape(name) for name in analyses], key=f"{key_prefix}ids_tab", on_change="rerun")
    for analysis, tab in zip(analyses.values(), tabs, strict=True):
        if not tab.open:
            continue
        with tab:
            ids = analysis.ids
            copy_block(render_ids(ids[:IDS_SHOWN]), key=f"{key_prefix}ids_{analysis.key}", label="Copy ids", height=180)
            if len(ids) > IDS_SHOWN:
                st.caption(f"The first {IDS_SHOWN:,} of {len(ids):,} ids; download them all below.")
                st.download_button(
                    "Download all ids",
                    lambda ids=ids: render_ids(ids),  # built only when clicked
                    file_name=f"{analysis.key}_ids.txt",
                    mime="text/plain",
                    key=f"{key_prefix}ids_download_{analysis.key}",
                    on_click="ignore",
                )


def export_menu(
    text: str, tokens: Callable[[], Sequence[Any]], *, name: str, total: int, piece: Any = None,
    show_whitespace: bool = True, key: str,
) -> None:
    """An "Export" popover: the spans as SVG and PNG (for slides), the tokens as JSON and CSV.

    ``tokens()`` gives all ``total`` tokens; it is called, and each file made, only when a button is
    pressed (a long text's tokens are built then; a PNG takes a second: Chromium draws it).
    """
    from ui import export

    stem = "".join(c if c.isalnum() else "_" for c in name).strip("_").lower() or "tokens"
    title = f"{name}: {total:,} tokens"

    def svg() -> str:
        return export.spans_svg(text, tokens(), piece=piece, show_whitespace=show_whitespace, title=title)

    def png() -> bytes:
        try:
            return export.svg_to_png(svg())
        except ValueError as exc:  # no Chromium: a text file that says why, not a broken image
            return f"No PNG: {exc}.".encode()

    menu = st.popover("Export", icon=":material/download:", key=f"{key}_open", on_change="rerun")
    if not menu.open:
        return  # its buttons are drawn when it is opened (which reruns the column's fragment alone)
    with menu:
        st.caption("For slides: the spans as a picture. For scripts: every token's id, bytes and offsets.")
        row = st.container(horizontal=True, gap="small")
        row.download_button("SVG", data=svg, file_name=f"{stem}.svg", mime="image/svg+xml", key=f"{key}_svg", on_click="ignore")
        row.download_button("PNG", data=png, file_name=f"{stem}.png", mime="image/png", key=f"{key}_png", on_click="ignore")
        row.download_button("JSON", data=lambda: export.tokens_json(text, tokens(), piece, tokenizer=name),
                            file_name=f"{stem}.json", mime="application/json", key=f"{key}_json", on_click="ignore")
        row.download_button("CSV", data=lambda: export.tokens_csv(text, tokens(), piece), file_name=f"{stem}.csv",
                            mime="text/csv", key=f"{key}_csv", on_click="ignore",
                            help="A cell starting with = + - @ gets a leading apostrophe, so spreadsheets read it as text.")


def chart(figure: Any, data: Any = None, *, key: str, name: str, **options: Any) -> Any:
    """A plotly chart with its exports: the chart as PNG and SVG (kaleido), its data as CSV.

    ``data`` is the frame the chart was drawn from (``ui.figures.figure_frame`` of the figure when
    None); ``options`` go to ``st.plotly_chart`` (``on_select`` …), whose return value is returned.
    """
    from ui import export, state
    from ui.figures import figure_frame, for_presentation

    if data is None:
        data = figure_frame(figure)
    if st.session_state.get(state.PRESENTATION):
        figure = for_presentation(figure)  # the PNG and SVG exports get the projector's type too
    event = st.plotly_chart(figure, key=key, config={"displaylogo": False}, **options)
    stem = "".join(c if c.isalnum() else "_" for c in name).strip("_").lower() or "chart"

    def image(fmt: str) -> Callable[[], bytes]:
        def make() -> bytes:
            try:
                return export.figure_image(figure, fmt)
            except ValueError as exc:
                return f"No {fmt.upper()}: {exc}.".encode()

        return make

    row = st.container(horizontal=True, gap="small")
    row.download_button("Chart (PNG)", data=image("png"), file_name=f"{stem}.png", mime="image/png",
                        key=f"{key}_png", icon=":material/image:", on_click="ignore")
    row.download_button("Chart (SVG)", data=image("svg"), file_name=f"{stem}.svg", mime="image/svg+xml",
                        key=f"{key}_svg", icon=":material/image:", on_click="ignore")
    row.download_button("Data (CSV)", data=lambda: export.frame_csv(data), file_name=f"{stem}.csv",
                        mime="text/csv", key=f"{key}_csv", icon=":material/table:", on_click="ignore")
    return event


def step_buttons(options: Sequence[Any], key: str, *, noun: str) -> None:
    """Previous / Next buttons, also ← and → on the keyboard, that move ``st.session_state[key]``
    through ``options`` (wrapping around): keyboard stepping for a talk."""

    def move(delta: int) -> None:
        current = st.session_state.get(key)
        at = options.index(current) if current in options else 0
        st.session_state[key] = options[(at + delta) % len(options)]

    row = st.container(horizontal=True, gap="small")
    row.button(f"Previous {noun}", key=f"{key}_prev", on_click=move, args=(-1,), shortcut="Left",
               icon=":material/arrow_back:", help=f"The previous {noun} (← key)")
    row.button(f"Next {noun}", key=f"{key}_next", on_click=move, args=(1,), shortcut="Right",
               icon=":material/arrow_forward:", help=f"The next {noun} (→ key)")


def tokenizer_options(names: Mapping[str, str]) -> list[str]:
    """The keys of a tokenizer picker, grouped by family (OpenAI, Meta, …, encoders, others, yours)."""
    from core.pretrained import catalog  # lazily: the registry's import must not slow the first paint

    return catalog.ordered(list(names))


def tokenizer_label(names: Mapping[str, str]) -> Callable[[str], str]:
    """A picker's ``format_func``: name · group, and the vendor where neither names it (``catalog.search_label``)."""
    from core.pretrained import catalog

    return lambda key: catalog.search_label(key, names.get(key, key))


def model_finder(picker_key: str, names: Mapping[str, str], *, key: str) -> None:
    """A field that adds to the picker ``picker_key`` the tokenizers of a model typed by its name.

    The picker's chips hold no model names (``catalog.search_label``), so its own search finds
    "gpt-4o" in "o200k_base (GPT-4o)" but not "pixtral" or "codestral": this field reads the
    model-name table (``data/model_names.tsv``, through ``catalog.search``) and says what it added.
    """
    st.text_input(
        "Find a tokenizer by model name", key=key, placeholder="e.g. gpt-4o, llama 3.1, pixtral",
        on_change=_add_models, args=(picker_key, dict(names), key),
        help="Adds the tokenizer each matching model uses to the picker above; the table of model "
             "names is data/model_names.tsv.",
    )
    note = st.session_state.get(key + "_note")
    if note:
        st.caption(md_escape(note))


def _add_models(picker_key: str, names: Mapping[str, str], key: str) -> None:
    from core.pretrained import catalog

    query = str(st.session_state.get(key) or "").strip()[:100]
    st.session_state[key] = ""
    if not query:
        st.session_state[key + "_note"] = ""
        return
    found = [k for k in catalog.search(query) if k in names]
    if not found:
        st.session_state[key + "_note"] = f"No tokenizer here is known for “{query}”."
        return
    chosen = list(st.session_state.get(picker_key) or [])
    added = [k for k in found if k not in chosen]
    st.session_state[picker_key] = [*chosen, *added]
    listed = ", ".join(names.get(k, k) for k in found)
    st.session_state[key + "_note"] = (f"“{query}”: {listed}" + (" added." if added else " (already shown)."))
