"""The shared page setup (ui/nav.py): sidebar links, and presentation mode kept across pages."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from tests.pages.live import live_box
from ui import nav, state

ROOT = Path(__file__).resolve().parents[2]
PAGES = [str(ROOT / path) for path, _, _ in nav.PAGES]


def presentation_css_loaded(at: AppTest) -> bool:
    marker = nav.PRESENTATION_CSS.read_text(encoding="utf-8").splitlines()[-1].strip()
    return any(marker in h.proto.body for h in at.html)


def test_every_listed_page_exists_and_the_main_page_is_called_playground() -> None:
    assert nav.PAGES[0][:2] == ("app.py", "Playground")
    for path, _, _ in nav.PAGES:
        assert (ROOT / path).is_file(), path
    listed = {path for path, _, _ in nav.PAGES}
    assert {f"pages/{p.name}" for p in (ROOT / "pages").glob("*.py")} <= listed


def test_presentation_mode_adds_its_css_and_survives_a_page_change() -> None:
    at = AppTest.from_file(PAGES[0], default_timeout=120).run()
    assert not at.exception
    assert not presentation_css_loaded(at)
    at.sidebar.toggle(key="nav_presentation").set_value(True).run()
    assert at.session_state[state.PRESENTATION] is True
    assert presentation_css_loaded(at)

    # Another page in the same session: the switch is drawn on, and the CSS is there.
    at.switch_page(PAGES[1]).run()
    assert not at.exception
    assert at.sidebar.toggle(key="nav_presentation").value is True
    assert presentation_css_loaded(at)


def test_presentation_mode_turns_off_right_after_it_was_turned_on() -> None:
    """The page writes present=1 into its own link; the next run must not take that for a newly
    opened link and undo the switch it runs for (the type stayed large until a second switch)."""
    for page in (PAGES[0], PAGES[1]):
        at = AppTest.from_file(page, default_timeout=120).run()
        at.sidebar.toggle(key="nav_presentation").set_value(True).run()
        assert at.query_params["present"] == "1"  # the page wrote its own link
        at.sidebar.toggle(key="nav_presentation").set_value(False).run()
        assert not at.exception
        assert at.session_state[state.PRESENTATION] is False, page
        assert at.sidebar.toggle(key="nav_presentation").value is False
        assert not presentation_css_loaded(at)
        # and a link that says present=1 still opens the page in presentation mode
        fresh = AppTest.from_file(page, default_timeout=120)
        fresh.query_params["present"] = "1"
        fresh.run()
        assert fresh.session_state[state.PRESENTATION] is True and presentation_css_loaded(fresh)


def test_every_page_comes_back_as_it_was_left() -> None:
    """Playground: own text, T5 added, whitespace and raw pieces on, 3 columns -> BPE page -> back."""
    at = AppTest.from_file(PAGES[0], default_timeout=120).run()
    live_box(at, state.PG_TEXT).input("My own text, 2026.").run()
    at.multiselect(key=state.PG_TOKENIZERS).set_value([*state.DEFAULT_TOKENIZERS, "t5"]).run()
    at.sidebar.toggle(key=state.PG_SHOW_WHITESPACE).set_value(True).run()
    at.sidebar.toggle(key=state.PG_RAW_PIECES).set_value(True).run()
    at.session_state[state.PG_COLUMNS] = 3
    at.run()
    assert not at.exception

    at.switch_page(PAGES[1]).run()
    assert not at.exception
    at.text_area(key=state.BPE_TEXT).set_value("Scrub this sentence.").run()
    at.switch_page(PAGES[0]).run()
    assert not at.exception
    assert live_box(at, state.PG_TEXT).value == "My own text, 2026."
    assert at.multiselect(key=state.PG_TOKENIZERS).value == [*state.DEFAULT_TOKENIZERS, "t5"]
    assert at.sidebar.toggle(key=state.PG_SHOW_WHITESPACE).value is True
    assert at.sidebar.toggle(key=state.PG_RAW_PIECES).value is True
    assert at.session_state[state.PG_COLUMNS] == 3

    at.switch_page(PAGES[1]).run()
    assert at.text_area(key=state.BPE_TEXT).value == "Scrub this sentence."


def test_the_playgrounds_price_and_decoder_ids_survive_another_page() -> None:
    """Widgets outside the page's declared state were dropped when another page ran (the price per
    million tokens and the decoder's pasted ids came back empty); drawn with ``state.kept``,
    Streamlit keeps them."""
    from ui.context_view import PRICE_KEY
    from ui.decode_view import IDS_KEY

    at = AppTest.from_file(PAGES[0], default_timeout=120).run()
    at.sidebar.number_input(key=PRICE_KEY).set_value(2.5).run()
    at.text_area(key=IDS_KEY).input("9906, 11").run()
    assert not at.exception
    at.switch_page(PAGES[1]).run()
    assert not at.exception
    at.switch_page(PAGES[0]).run()
    assert at.sidebar.number_input(key=PRICE_KEY).value == 2.5
    assert at.text_area(key=IDS_KEY).value == "9906, 11"
