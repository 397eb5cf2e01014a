"""Every session-state key of every page, with its default, in one place.

Widget keys carry a per-page prefix ("pg_" for the Playground) so two pages never share a widget's
state by accident. ``init`` fills in the defaults a page needs, so a page opened directly by URL,
with an empty session, works.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

import streamlit as st

# Every page: presentation mode (larger type, stronger contrast), kept across pages.
PRESENTATION = "presentation_mode"
PRESENT_SEEN = "_present_seen"  # the link's present= value last read or written (ui.nav, ui.links)

SAMPLES_DIR = Path(__file__).resolve().parent.parent / "data" / "samples"
PLAYGROUND_SAMPLE = SAMPLES_DIR / "playground_default.txt"

# The Playground (app.py).
PG_TEXT = "pg_text"  # the text area
PG_UPLOAD = "pg_upload"  # the .txt file uploader
PG_BIG_TEXT = "pg_big_text"  # an uploaded text too long for the text area (ui.widgets.BIG_TEXT_CHARS), or ""
PG_UPLOAD_ERROR = "pg_upload_error"  # the message of the last failed upload, or ""
PG_UPLOAD_NOTE = "pg_upload_note"  # "Loaded notes.txt (1,234 characters)." after a good upload
PG_TOKENIZERS = "pg_tokenizers"  # the multiselect of registry keys
PG_SHOW_WHITESPACE = "pg_show_whitespace"
PG_RAW_PIECES = "pg_raw_pieces"
PG_ALLOW_SPECIAL = "pg_allow_special"  # read "<|endoftext|>" typed in the text as the special token
PG_COLUMNS = "pg_columns"  # tokenizer columns per row
PG_DISAGREE = "pg_disagree"  # mark the token boundaries not all the chosen tokenizers share (ui.span_links)
PG_VIEW = "pg_view"  # what the pills show: "Text", "Ids" or "Both" (ui.span_links.VIEWS)
PG_SHOWN = "pg_shown"  # tokens drawn per column beyond the first screenful: {view: count} (ui.columns)

# Pretrained keys shown when the Playground opens; kept equal to core.pretrained.DEFAULT_KEYS
# (a test checks it) so this module does not import the registry.
DEFAULT_TOKENIZERS = ("gpt2", "cl100k_base", "o200k_base", "llama3")


@lru_cache(maxsize=1)
def playground_sample() -> str:
    """The Playground's default text (data/samples/playground_default.txt)."""
    try:
        return PLAYGROUND_SAMPLE.read_text(encoding="utf-8")
    except OSError:
        return "Hello, world! Héllo, 世界 👩‍💻 2026"


def playground_defaults() -> dict[str, Any]:
    """The Playground's keys and their defaults (fresh lists each call: no shared mutable state)."""
    return {
        PG_TEXT: playground_sample(),
        PG_BIG_TEXT: "",
        PG_UPLOAD_ERROR: "",
        PG_UPLOAD_NOTE: "",
        PG_TOKENIZERS: list(DEFAULT_TOKENIZERS),
        PG_SHOW_WHITESPACE: False,
        PG_RAW_PIECES: False,
        PG_ALLOW_SPECIAL: False,
        PG_COLUMNS: 2,
        PG_DISAGREE: False,
        PG_VIEW: "Text",
        PG_SHOWN: {},
    }


# Declared keys whose widgets Streamlit itself keeps across pages (``kept``): ``keep_declared`` leaves
# them alone. Only declared keys are recorded (the others it never writes), so the set stays as small as
# the pages' declared state, whatever per-tokenizer keys (a context window each) are drawn.
_KEPT_BY_WIDGET: set[str] = set()


def kept(key: str) -> dict[str, str]:
    """A widget's ``key`` and ``persist_state="session"``, as in ``st.toggle("…", **kept(PG_RAW_PIECES))``.

    Streamlit then keeps the value while another page runs, under ``key``. The key is also left out of
    ``keep_declared``'s write-back. That write-back lost clicks: a run cut short by a page switch (under
    load) left the value under the widget's id, which the switch drops; and a value written back goes to
    the browser as set by the app, so a click made while that run was on its way was undone.
    """
    if key in _DECLARED:
        _KEPT_BY_WIDGET.add(key)
    return {"key": key, "persist_state": "session"}


# Every key a page has declared through ``init``: ``keep_declared`` carries them across pages.
_DECLARED: set[str] = set()


def init(defaults: Mapping[str, Any]) -> None:
    """Set each key that is not in the session yet to its default; never overwrite a user's value.

    The keys are remembered as declared, so ``keep_declared`` keeps them when the user visits
    another page and comes back.
    """
    _DECLARED.update(defaults)
    for key, value in defaults.items():
        if key not in st.session_state:
            st.session_state[key] = value


def keep_declared(drawn: Collection[str] = ()) -> None:
    """Keep every declared key's value across pages (``ui.nav.page_setup`` calls it on every run).

    Subtle: Streamlit drops the state of a widget that a run does not draw (another page's text
    area, a form on a hidden view), and the page then comes back with its defaults. Writing a
    value back under its own key turns it into plain session state, which is never dropped; the
    widget picks it up again when it is drawn. Only keys declared through ``init`` are written:
    buttons and file uploaders refuse values set this way, and they are never declared. Keys whose
    widgets are drawn with ``kept`` are not written either: Streamlit keeps those itself (and the
    write-back could lose them, see ``kept``). What is left to write is plain state and the tab bars'
    open tabs (``st.tabs`` takes no ``persist_state``).

    ``drawn``: keys whose widgets this page draws on every run, given their value as ``default=``
    too. They are not written back: a written-back value goes to the browser as set by the app, and
    the widget starts over (a picker's typed filter was cleared, so a run that came while the user
    filtered, as the Playground's runs follow typing, turned their next click into "Select all").
    Streamlit still drops them when another page runs, so the page keeps a plain copy
    (``keep_drawn``, after drawing the widget) and it is put back here.
    """
    for key in _DECLARED.difference(drawn, _KEPT_BY_WIDGET):
        if key in st.session_state:
            st.session_state[key] = st.session_state[key]
    for key in drawn:
        if key not in st.session_state and _KEPT + key in st.session_state:  # back from another page
            st.session_state[key] = st.session_state[_KEPT + key]


_KEPT = "kept_"  # plain copies of the ``drawn`` keys of ``keep_declared``


def drawn_value(key: str) -> Any:
    """A ``drawn`` key's value, from its plain copy when another page ran since (None if never set)."""
    return st.session_state[key] if key in st.session_state else st.session_state.get(_KEPT + key)


def keep_drawn(key: str, value: Any) -> None:
    """Keep a plain copy of a ``drawn`` widget's value (``keep_declared``), for when another page ran."""
    st.session_state[_KEPT + key] = value


def init_playground() -> None:
    """``init`` with the Playground's defaults."""
    init(playground_defaults())


# -- BPE step by step (pages/1_BPE_step_by_step.py) ------------------------------------------------
# Owned by that page; its widgets all carry the "bpe_" prefix.
BPE_VIEW = "bpe_view"  # "train" (train your own) or "replay" (replay a real tokenizer)
BPE_CORPUS = "bpe_corpus"  # training form: catalog key, or "paste" / "upload"
BPE_PASTE = "bpe_paste"  # training form: the pasted corpus
BPE_UPLOAD = "bpe_upload"  # training form: the .txt uploader (widget only, no default)
BPE_MODE = "bpe_mode"  # training form: "byte" or "char"
BPE_END_OF_WORD = "bpe_end_of_word"  # training form, char mode: a key of core.bpe.END_OF_WORDS
BPE_PATTERN = "bpe_pattern"  # training form: a name of core.text.patterns.NAMED_PATTERNS, or "Custom regex"
BPE_CUSTOM_PATTERN = "bpe_custom_pattern"  # training form: the custom regex
BPE_SIZE_KIND = "bpe_size_kind"  # training form: "merges" or "vocab"
BPE_SIZE = "bpe_size"  # training form: number of merges or vocabulary size
BPE_TIE = "bpe_tie"  # training form: a key of core.bpe.TIE_BREAKS
BPE_PRESET_PENDING = "bpe_preset_pending"  # a preset (ui.bpe.presets) just filled the form: train now
BPE_APPLIED = "bpe_applied"  # the settings of the model shown (ui.bpe.views.TrainSettings); None = defaults
BPE_OWN_TEXT = "bpe_own_text"  # the pasted or uploaded corpus of the applied settings
BPE_TRAIN_ERROR = "bpe_train_error"  # why the last "Train" did not train, or ""
BPE_TEXT = "bpe_text"  # the user's text, segmented at each step
BPE_STEP = "bpe_step"  # the scrubber: merges applied
BPE_STEP_FOR = "bpe_step_for"  # the settings BPE_STEP was last reset for
BPE_PLAYING = "bpe_playing"
BPE_TICK = "bpe_tick"  # time.monotonic() of the last step "play" made
BPE_SPEED = "bpe_speed"  # play speed, steps per second (ui.scrubber.SPEEDS)
BPE_SHOW_WHITESPACE = "bpe_show_whitespace"
BPE_FILTER = "bpe_filter"  # search box over the merges table
BPE_TABLE = "bpe_table"  # the merges table's row selection (widget only)
BPE_REPLAY_TOKENIZER = "bpe_replay_tokenizer"  # registry key
BPE_REPLAY_TEXT = "bpe_replay_text"
BPE_REPLAY_STEP = "bpe_replay_step"
BPE_REPLAY_FOR = "bpe_replay_for"  # (tokenizer key, text) BPE_REPLAY_STEP was last reset for
BPE_REPLAY_PLAYING = "bpe_replay_playing"
BPE_REPLAY_TICK = "bpe_replay_tick"
BPE_REPLAY_SPEED = "bpe_replay_speed"

BPE_DEFAULT_TEXT = "The language model never sees letters: it sees tokens."
BPE_DEFAULT_REPLAY_TEXT = "The model doesn't see letters, it sees tokens: 12345 of them! 🤖"


def bpe_defaults() -> dict[str, Any]:
    """The BPE page's keys and their defaults: it opens training 300 merges on the English essay."""
    return {
        BPE_VIEW: "train",
        BPE_CORPUS: "sample_essay_en",
        BPE_PASTE: "",
        BPE_MODE: "byte",
        BPE_END_OF_WORD: "separate",  # l o w </w>, as the paper and most teaching material write it
        BPE_PATTERN: "GPT-2",
        BPE_CUSTOM_PATTERN: r" ?\w+| ?[^\w\s]+|\s+",
        BPE_SIZE_KIND: "merges",
        BPE_SIZE: 300,
        BPE_TIE: "first_seen",
        BPE_PRESET_PENDING: False,
        BPE_APPLIED: None,
        BPE_OWN_TEXT: "",
        BPE_TRAIN_ERROR: "",
        BPE_TEXT: BPE_DEFAULT_TEXT,
        BPE_STEP: 0,
        BPE_STEP_FOR: None,
        BPE_PLAYING: False,
        BPE_TICK: 0.0,
        BPE_SPEED: 1,
        BPE_SHOW_WHITESPACE: True,
        BPE_FILTER: "",
        BPE_REPLAY_TOKENIZER: "cl100k_base",
        BPE_REPLAY_TEXT: BPE_DEFAULT_REPLAY_TEXT,
        BPE_REPLAY_STEP: 0,
        BPE_REPLAY_FOR: None,
        BPE_REPLAY_PLAYING: False,
        BPE_REPLAY_TICK: 0.0,
        BPE_REPLAY_SPEED: 5,
    }


def init_bpe() -> None:
    """``init`` with the BPE page's defaults (``keep_declared`` keeps them across views and pages)."""
    init(bpe_defaults())


# -- Chat formats (pages/10_Chat_formats.py) --------------------------------------------------------
CF_SYSTEM = "cf_system"
CF_USER = "cf_user"
CF_TOOL_ON = "cf_tool_on"  # include the tool call and its result
CF_TOOL_NAME = "cf_tool_name"
CF_TOOL_ARGS = "cf_tool_args"
CF_TOOL_RESULT = "cf_tool_result"
CF_REPLY = "cf_reply"
CF_FORMATS = "cf_formats"  # keys of core.chat.formats.FORMATS and core.chat.templates.TEMPLATES
CF_SHOW_WHITESPACE = "cf_show_whitespace"
CF_CONFIG_UPLOAD = "cf_config_upload"  # the file uploader of a tokenizer_config.json (a widget: no default)
CF_CONFIG_TOKENIZER = "cf_config_tokenizer"  # the tokenizer that reads the uploaded template's output


def chat_defaults() -> dict[str, Any]:
    """The chat-format page's conversation (core.chat.formats.default_conversation) and every format."""
    from core.chat.formats import FORMATS, default_conversation
    from core.chat.templates import TEMPLATES

    system, user, call, result, reply = default_conversation()
    return {
        CF_SYSTEM: system.content,
        CF_USER: user.content,
        CF_TOOL_ON: True,
        CF_TOOL_NAME: call.tool_name,
        CF_TOOL_ARGS: call.content,
        CF_TOOL_RESULT: result.content,
        CF_REPLY: reply.content,
        CF_FORMATS: [*FORMATS, *TEMPLATES],
        CF_SHOW_WHITESPACE: True,
    }


# -- Beyond fixed tokenizers (pages/8_Beyond_tokenizers.py) -----------------------------------------
# Owned by that page; its widgets all carry the "bt_" prefix.
BT_VIEW = "bt_view"  # "bytes", "patches" or "superwords"
BT_TEXT = "bt_text"  # the user's text, shared by the three views
BT_TOKENIZERS = "bt_tokenizers"  # registry keys compared with bytes, patches and superwords
BT_SHOW_WHITESPACE = "bt_show_whitespace"
BT_NGRAM_CORPUS = "bt_ngram_corpus"  # entropy-model form: a key of ui.beyond.models.ngram_corpus_options()
BT_NGRAM_ORDER = "bt_ngram_order"  # entropy-model form: n-gram order, 1 to core.beyond.byte_ngram.MAX_ORDER
BT_NGRAM_APPLIED = "bt_ngram_applied"  # the settings of the model shown (ui.beyond.models.NgramSettings)
BT_NGRAM_ERROR = "bt_ngram_error"  # why the last "Train" did not train, or ""
BT_RULE = "bt_rule"  # a key of core.beyond.patches.RULES
BT_THRESHOLD_GLOBAL = "bt_threshold_global"  # θ of the global rule, bits
BT_THRESHOLD_RELATIVE = "bt_threshold_relative"  # θ of the relative rule, bits
BT_WHOLE_CHARS = "bt_whole_chars"  # patches end only between characters
BT_PARALLEL = "bt_parallel"  # the parallel text across languages: "pud" or "builtin"
BT_SUPER_CORPUS = "bt_super_corpus"  # superword form: a catalog key
BT_SUPER_VOCAB = "bt_super_vocab"  # superword form: final vocabulary size
BT_SUPER_TRANSITION = "bt_super_transition"  # superword form: vocabulary size where stage 2 starts
BT_SUPER_APPLIED = "bt_super_applied"  # the settings of the model shown (ui.beyond.models.SuperSettings)
BT_SUPER_ERROR = "bt_super_error"  # why the last "Train" did not train, or ""

BT_DEFAULT_TEXT = (
    "In order to understand the meaning of the text, the model reads it piece by piece: the common "
    "words of the language are predictable, but a rare name such as Daenerys Targaryen is not."
)

def beyond_defaults() -> dict[str, Any]:
    """The page's keys and defaults. With the data folder it opens on richer corpora (PUD in 21
    languages for the entropy model, the novel Botchan for superwords); without it, on built-in text."""
    from core.beyond import multilingual  # lazily: only this page needs to look at the data folder

    data = multilingual.pud_available()
    return {
        BT_VIEW: "patches",
        BT_TEXT: BT_DEFAULT_TEXT,
        BT_TOKENIZERS: ["gpt2", "cl100k_base", "o200k_base"],
        BT_SHOW_WHITESPACE: False,
        BT_NGRAM_CORPUS: "pud_mix" if data else "samples",
        BT_NGRAM_ORDER: 5,
        BT_NGRAM_APPLIED: None,
        BT_NGRAM_ERROR: "",
        BT_RULE: "global",
        BT_THRESHOLD_GLOBAL: 3.5,
        BT_THRESHOLD_RELATIVE: 1.0,
        BT_WHOLE_CHARS: True,
        BT_PARALLEL: "pud" if data else "builtin",
        BT_SUPER_CORPUS: "botchan_en" if data else "sample_essay_en",
        BT_SUPER_VOCAB: 4000 if data else 600,
        BT_SUPER_TRANSITION: 3000 if data else 450,
        BT_SUPER_APPLIED: None,
        BT_SUPER_ERROR: "",
    }


def init_beyond() -> None:
    """``init`` with the page's defaults (``keep_declared`` keeps them across views and pages)."""
    init(beyond_defaults())
# -- Uploaded tokenizers (ui/uploads.py) and Inside a tokenizer (pages/9_Inside_a_tokenizer.py) ----
# Uploads belong to the browser session: the Playground's sidebar and the "Inside" page both add to
# them, and every tokenizer picker lists them. Keys "pg_" (shared with the Playground) and "it_".
UPLOADED_TOKENIZERS = "pg_uploaded_tokenizers"  # picker key ("upload:<sha256 prefix>") -> core Upload
UPLOADED_RANK_FILES = "pg_uploaded_rank_files"  # picker key -> (bytes, file name) of .tiktoken uploads
UPLOAD_PATTERN = "pg_upload_pattern"  # the pattern for rank files: a name in TIKTOKEN_PATTERNS or "Custom regex"
UPLOAD_CUSTOM_PATTERN = "pg_upload_custom_pattern"
UPLOAD_MESSAGE = "pg_upload_tokenizer_message"  # ("ok" | "error", one line) of the last tokenizer upload
HUB_CONFIGS = "pg_hub_configs"  # picker key -> (shown name, tokenizer_config.json bytes) of Hub tokenizers
IT_TOKENIZER = "it_tokenizer"  # the tokenizer looked inside: a registry key or an upload's picker key
IT_TEXT = "it_text"  # the pipeline's text
IT_VIEW = "it_view"  # "facts" or "pipeline"
IT_SHOW_WHITESPACE = "it_show_whitespace"

IT_DEFAULT_TEXT = "Héllo World!  Ｔｏｋｅｎｉｚｅｒｓ split 2026 words: 日本語 🙂"


def upload_defaults() -> dict[str, Any]:
    """The uploads' keys (fresh containers each call) and the Inside page's picker, which an upload sets."""
    return {
        UPLOADED_TOKENIZERS: {},
        UPLOADED_RANK_FILES: {},
        UPLOAD_PATTERN: "GPT-2",
        UPLOAD_CUSTOM_PATTERN: r"""'s|'t| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+""",
        UPLOAD_MESSAGE: None,
        HUB_CONFIGS: {},
        IT_TOKENIZER: "cl100k_base",
    }


def init_inside() -> None:
    """``init`` with the Inside page's defaults (and the uploads')."""
    init(upload_defaults() | {IT_TEXT: IT_DEFAULT_TEXT, IT_VIEW: "facts", IT_SHOW_WHITESPACE: True})
# -- Unicode & bytes, Pre-tokenization, Pitfalls (pages/5_…, 6_…, 7_…) -------------------------------
# Owned by those pages; their widgets carry the "uc_", "pt_" and "pf_" prefixes.
UC_TEXT = "uc_text"
UC_VIEW = "uc_view"  # "characters", "normalization", "tokenizers" or "flags"
UC_PAGE = "uc_rows_page"  # the characters table's page, from 1 (in a link "rows_page": "page" names the page)
UC_TOKENIZERS = "uc_tokenizers"  # registry keys whose normalization is shown

UC_DEFAULT_TEXT = (
    "Café or Cafe\u0301? ﬁne ① Straße İstanbul ＦＵＬＬ\n"
    "👨\u200d👩\u200d👧\u200d👦 👍🏽 🇪🇸 — pаypal.com vs paypal.com\n"
    "zero\u200bwidth, soft\u00adhyphen, non\u00a0breaking, \u200fRTL mark"
)


def unicode_defaults() -> dict[str, Any]:
    """The Unicode page's keys and their defaults."""
    return {
        UC_TEXT: UC_DEFAULT_TEXT,
        UC_VIEW: "characters",
        UC_PAGE: 1,
        UC_TOKENIZERS: ["gpt2", "qwen", "bert_uncased", "bert_cased", "t5", "claude_legacy"],
    }


PT_TEXT = "pt_text"
PT_VIEW = "pt_view"  # "patterns", "digits", "contractions" or "spaces"
PT_PATTERNS = "pt_patterns"  # names of core.text.patterns.NAMED_PATTERNS
PT_CUSTOM = "pt_custom"  # the user's regex ("" hides it)
PT_SHOW_WHITESPACE = "pt_show_whitespace"
PT_DIGITS_TEXT = "pt_digits_text"
PT_TOKENIZERS = "pt_tokenizers"  # registry keys for the digits view

PT_DEFAULT_TEXT = (
    "I'm sure they'll say it's fine. DON'T PANIC!\n"
    "In 2026 we had 1234567 visitors (≈$3.14 each).\n"
    "    def greet(name):\n"
    "        return f\"Hello,   {name}!\""
)


def pretokenization_defaults() -> dict[str, Any]:
    """The Pre-tokenization page's keys and their defaults."""
    return {
        PT_TEXT: PT_DEFAULT_TEXT,
        PT_VIEW: "patterns",
        PT_PATTERNS: ["GPT-2", "cl100k_base", "o200k_base", "Llama 3", "Whitespace"],
        PT_CUSTOM: r" ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+",
        PT_SHOW_WHITESPACE: True,
        PT_DIGITS_TEXT: "1234567 2026 3.14159 1,000,000 007",
        PT_TOKENIZERS: ["gpt2", "cl100k_base", "o200k_base", "llama3", "qwen", "llama2"],
    }


PF_CASE = "pf_case"  # a key of core.pitfalls.CASES
PF_TOKENIZERS = "pf_tokenizers"
PF_GLITCH_TOKENIZER = "pf_glitch_tokenizer"  # a byte-level BPE registry key
PF_INDENT = "pf_indent"  # a key of core.pitfalls.catalog.INDENT_UNITS, drawn as spans
PF_WORD = "pf_word"  # one of core.pitfalls.catalog.SPELLING_WORDS


def pitfalls_defaults() -> dict[str, Any]:
    """The Pitfalls page's keys and their defaults."""
    return {
        PF_CASE: "numbers",
        PF_TOKENIZERS: ["gpt2", "cl100k_base", "o200k_base", "llama3", "llama2"],
        PF_GLITCH_TOKENIZER: "gpt2",
        PF_INDENT: "8 spaces",
        PF_WORD: "strawberry",
    }


# -- Language tax (pages/4_Language_tax.py) --------------------------------------------------------
# Owned by that page; its widgets all carry the "lt_" prefix.
LT_CORPUS = "lt_corpus"  # a key of core.tax.parallel_corpus.parallel_catalog(): "sample", "udhr", "pud"
LT_PRESET = "lt_preset"  # a name of core.tax.parallel_corpus.PRESETS, or None once languages are picked by hand
LT_LANGUAGES = "lt_languages"  # language codes of the corpus
LT_BASE = "lt_base"  # the base language's code (premium 1×)
LT_TOKENIZERS = "lt_tokenizers"  # registry keys
LT_CHART_TOKENIZER = "lt_chart_tokenizer"  # the tokenizer of the bar chart and the spans below it
LT_FOCUS = "lt_focus"  # the language whose spans are shown in place ("" = the most expensive one)
LT_ORDER = "lt_order"  # heatmap rows: "premium" or "script"
LT_CONTEXT = "lt_context"  # tokens in the context window of the practical units
LT_PRICE = "lt_price"  # price per million tokens, in the user's currency
LT_UNIT = "lt_unit"  # practical unit shown: "words", "segments" or "cost"
LT_OWN_TEXT = "lt_own_text"  # "your own translation": the original
LT_OWN_TRANSLATION = "lt_own_translation"  # … and its translation
LT_VALIDATE = "lt_validate"  # leave out language × tokenizer pairs above the unknown-token threshold
LT_UNKNOWN_MAX = "lt_unknown_max"  # that threshold, in percent of tokens
LT_DIST_ORDER = "lt_dist_order"  # distribution plot: "median" (sorted) or "corpus" (corpus order)
LT_BOARD = "lt_board"  # whether the compression leaderboard was asked for (it counts every tokenizer)
LT_BOARD_VALUE = "lt_board_value"  # leaderboard cells: "bytes_per_token", "chars_per_token" or "premium"
LT_BOARD_TOKENIZERS = "lt_board_tokenizers"  # None: every registry and uploaded tokenizer
LT_UPLOADED = "lt_uploaded_corpus"  # this session's own parallel corpus (never in a link)
LT_TAB = "lt_tab"  # the open tab's label, one of LT_TABS (only the open tab computes)
LT_TABS = ("Heatmap", "Table", "Distribution", "Leaderboard", "Generations", "Practical units",
           "Your own translation", "Sources and licences")

LT_DEFAULT_TOKENIZERS = ("gpt2", "cl100k_base", "o200k_base", "llama3", "qwen", "xlmr")
LT_DEFAULT_OWN_TEXT = "An old man sold honey in glass jars and told every customer where his bees lived."
LT_DEFAULT_OWN_TRANSLATION = (
    "एक बूढ़ा आदमी काँच के मर्तबानों में शहद बेच रहा था और हर ग्राहक को बताता था कि उसकी मधुमक्खियाँ कहाँ रहती हैं।"
)


def language_tax_defaults() -> dict[str, Any]:
    """The Language tax page's keys and their defaults: the built-in sample, all its languages."""
    return {
        LT_CORPUS: "sample",
        LT_TAB: LT_TABS[0],
        LT_PRESET: "all",
        LT_LANGUAGES: None,  # None: the preset's languages, resolved once the corpus is loaded
        LT_BASE: "en",
        LT_TOKENIZERS: list(LT_DEFAULT_TOKENIZERS),
        LT_CHART_TOKENIZER: "cl100k_base",
        LT_FOCUS: "",
        LT_ORDER: "premium",
        LT_VALIDATE: False, LT_UNKNOWN_MAX: 10.0, LT_DIST_ORDER: "median", LT_BOARD: False,
        LT_BOARD_VALUE: "bytes_per_token", LT_BOARD_TOKENIZERS: None, LT_UPLOADED: None,
        LT_CONTEXT: 128_000,
        LT_PRICE: 1.00,
        LT_UNIT: "words",
        LT_OWN_TEXT: LT_DEFAULT_OWN_TEXT,
        LT_OWN_TRANSLATION: LT_DEFAULT_OWN_TRANSLATION,
    }


# -- Algorithms (pages/2_Algorithms.py) --------------------------------------------------------------
# Owned by that page; its widgets all carry the "al_" prefix.
AL_CORPUS = "al_corpus"  # training form: catalog key, or "paste" / "upload"
AL_PASTE = "al_paste"  # training form: the pasted corpus
AL_UPLOAD = "al_upload"  # training form: the .txt uploader (widget only, no default)
AL_BPE_FLAVOUR = "al_bpe_flavour"  # training form: a key of core.measures.vocab_grid.BPE_FLAVOURS
AL_UNIGRAM_RECIPE = "al_unigram_recipe"  # training form: a key of core.measures.vocab_grid.UNIGRAM_RECIPES
AL_APPLIED = "al_applied"  # the corpus and flavour trained on (ui.algorithms.store.GridSettings); None = defaults
AL_OWN_TEXT = "al_own_text"  # the pasted or uploaded corpus of the applied settings
AL_TRAIN_ERROR = "al_train_error"  # why the last "Train" did not train, or ""
TRAINING_STOPPED = "training_stopped"  # the page whose Stop button interrupted a training (ui.store)
AL_TEXT = "al_text"  # the text cut in every cell
AL_SIZES = "al_sizes"  # the grid's columns: vocabulary sizes from core.measures.vocab_grid.SIZE_OPTIONS
AL_SIZES_LAST = "al_sizes_last"  # the sizes before the last click (a fifth pick is taken back)
AL_SIZES_TRAINED = "al_sizes_trained"  # the sizes of the last grid shown (a stopped training goes back to them)
AL_SHOW_WHITESPACE = "al_show_whitespace"
AL_FOCUS = "al_focus"  # the size the three closer looks use
AL_DROPOUT = "al_dropout"  # BPE-dropout's p
AL_DROPOUT_SEED = "al_dropout_seed"  # "Resample" adds one
AL_WP_WORD = "al_wp_word"  # the word WordPiece's greedy longest match is shown on
AL_UNI_WORD = "al_uni_word"  # the word whose Unigram lattice is drawn
AL_NBEST = "al_nbest"  # how many best segmentations of that word
AL_ALPHA = "al_alpha"  # Unigram sampling's smoothing alpha
AL_SAMPLE_SEED = "al_sample_seed"  # "Sample" adds one

AL_DEFAULT_TEXT = "The model never sees letters, only pieces: understanding tokenizers 🙂"


def algorithms_defaults() -> dict[str, Any]:
    """The Algorithms page's keys and defaults: the English essay, byte-level BPE, sizes 300, 500, 1,000."""
    return {
        AL_CORPUS: "sample_essay_en",
        AL_PASTE: "",
        AL_BPE_FLAVOUR: "byte",
        AL_UNIGRAM_RECIPE: "sentencepiece",
        AL_APPLIED: None,
        AL_OWN_TEXT: "",
        AL_TRAIN_ERROR: "",
        AL_TEXT: AL_DEFAULT_TEXT,
        AL_SIZES: [300, 500, 1000],
        AL_SIZES_LAST: [300, 500, 1000],
        AL_SIZES_TRAINED: [300, 500, 1000],
        AL_SHOW_WHITESPACE: True,
        AL_FOCUS: 500,
        AL_DROPOUT: 0.1,
        AL_DROPOUT_SEED: 0,
        AL_WP_WORD: "understanding",
        AL_UNI_WORD: "understanding",
        AL_NBEST: 5,
        AL_ALPHA: 0.1,
        AL_SAMPLE_SEED: 0,
    }


def init_algorithms() -> None:
    """``init`` with the Algorithms page's defaults."""
    init(algorithms_defaults())


# -- Words & compression (pages/3_Words_and_compression.py) ---------------------------------------
# Owned by that page; its widgets all carry the "wc_" prefix.
WC_CORPUS = "wc_corpus"  # corpus form: catalog key, or "paste" / "upload"
WC_PASTE = "wc_paste"  # corpus form: the pasted corpus
WC_UPLOAD = "wc_upload"  # corpus form: the .txt uploader (widget only, no default)
WC_APPLIED = "wc_applied"  # the corpus shown (ui.words.cache.CorpusChoice); None = the default
WC_OWN_TEXT = "wc_own_text"  # the pasted or uploaded text of the applied choice
WC_CORPUS_ERROR = "wc_corpus_error"  # why the last "Use this corpus" did not switch, or ""
WC_TAB = "wc_tab"  # the open tab's label, one of WC_TABS
WC_TOKENIZERS = "wc_tokenizers"  # registry keys measured next to the sweeps and in the units table
WC_RULE = "wc_rule"  # a key of core.measures.wordstats.WORD_RULES
WC_ZIPF_WINDOW = "wc_zipf_window"  # (first rank, last rank) of Zipf's fit
WC_ZIPF_METHOD = "wc_zipf_method"  # a key of core.measures.wordstats.ZIPF_METHODS
WC_HEAPS_START = "wc_heaps_start"  # where Heaps' fit starts (words read); 0 = core.measures.wordstats.heaps_start's rule
WC_MAX_VOCAB = "wc_max_vocab"  # sweep form: the largest vocabulary
WC_POINTS = "wc_points"  # sweep form: sizes WordPiece and Unigram train at
WC_OTHERS = "wc_others"  # sweep form: algorithms besides BPE
WC_PATTERN = "wc_pattern"  # sweep form: a name of core.text.patterns.NAMED_PATTERNS
WC_SWEEP = "wc_sweep"  # the applied sweep settings (ui.words.cache.SweepSettings); None = defaults
WC_UNITS_VOCAB = "wc_units_vocab"  # units: the BPE vocabulary size shown
WC_PRESET = "wc_preset"  # calculator: a preset's name, or "" for custom figures
WC_V = "wc_v"
WC_D = "wc_d"
WC_N = "wc_n"  # calculator: parameters of the whole model, 0 = unknown
WC_TIED = "wc_tied"

WC_TABS = ("Word statistics", "Units", "Compression vs vocabulary", "Vocabulary cost")
WC_DEFAULT_TOKENIZERS = ("gpt2", "cl100k_base", "o200k_base", "llama2", "llama3", "bert_uncased")


def words_defaults() -> dict[str, Any]:
    """The "Words & compression" page's keys and their defaults: Tiny Shakespeare, BPE to 8,192, GPT-2 small."""
    return {
        WC_TAB: WC_TABS[0],
        WC_CORPUS: "tinyshakespeare",
        WC_PASTE: "",
        WC_APPLIED: None,
        WC_OWN_TEXT: "",
        WC_CORPUS_ERROR: "",
        WC_TOKENIZERS: list(WC_DEFAULT_TOKENIZERS),
        WC_RULE: "letters",
        WC_ZIPF_WINDOW: (10, 1_000),
        WC_ZIPF_METHOD: "every_rank",
        WC_HEAPS_START: 0,
        WC_MAX_VOCAB: 8_192,
        WC_POINTS: 8,
        WC_OTHERS: [],  # WordPiece and Unigram train on demand (a button under the chart)
        WC_PATTERN: "GPT-2",
        WC_SWEEP: None,
        WC_UNITS_VOCAB: 8_192,
        WC_PRESET: "GPT-2 small",
        WC_V: 50_257,
        WC_D: 768,
        WC_N: 124_439_808,
        WC_TIED: True,
    }
