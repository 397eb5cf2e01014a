"""ui.kept_figures: a figure built once per distinct input, handed out as a new, equal figure each time."""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go

from ui import kept_figures


def bars(frame: pd.DataFrame, *, title: str, template: str | None = None) -> go.Figure:
    bars.calls += 1
    layout = {"title": {"text": title}, "height": 300, **({"template": template} if template else {})}
    return go.Figure(go.Bar(x=frame["x"], y=frame["y"]), layout=layout)


bars.calls = 0
FRAME = pd.DataFrame({"x": ["a", "b"], "y": [1.0, 2.5]})


def test_built_once_per_input_and_each_caller_gets_its_own_equal_figure() -> None:
    kept_figures.figures.clear()
    bars.calls = 0
    first = kept_figures.kept(bars, FRAME, title="t")
    first.update_layout(height=900)  # presentation mode restyles its figure in place
    second = kept_figures.kept(bars, FRAME.copy(), title="t")
    assert bars.calls == 1
    assert second.layout.height == 300 and second.to_json() == bars(FRAME, title="t").to_json()  # template too
    kept_figures.kept(bars, FRAME.assign(y=[1.0, 2.6]), title="t")  # one cell differs: built anew
    kept_figures.kept(bars, FRAME, title="u")
    assert bars.calls == 4  # and one built above to compare with


def test_another_template_or_an_input_that_cannot_be_a_key_is_built_every_time() -> None:
    kept_figures.figures.clear()
    bars.calls = 0
    own = [kept_figures.kept(bars, FRAME, title="t", template="plotly_dark") for _ in range(2)]
    assert own[1].to_json() == bars(FRAME, title="t", template="plotly_dark").to_json()
    lists = FRAME.assign(lists=[[1], [2]])
    kept_figures.kept(bars, lists, title="t")
    kept_figures.kept(bars, lists, title="t")
    assert bars.calls == 5
