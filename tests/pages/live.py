"""The live text box (ui/live_text.py) under AppTest, in place of ``at.text_area(key=...)``.

AppTest cannot type into a components-v2 element, so ``input`` puts the text into the page's
session key, which is what the box's callback does with a typed text (its seq and version rules
are tested apart in tests/ui/test_live_text.py, its typing in tests/browser/test_live_text.py);
``value`` reads the text the server hands the browser's box.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from streamlit.testing.v1 import AppTest


@dataclass
class LiveBox:
    at: AppTest
    key: str

    def _data(self) -> dict | None:
        for element in self.at.get("bidi_component"):
            if element.proto.component_name.endswith("tp_live_text"):
                data = json.loads(element.proto.json)
                if data.get("name") == self.key:
                    return data
        return None

    @property
    def exists(self) -> bool:
        return self._data() is not None

    @property
    def value(self) -> str:
        data = self._data()
        if data is None:
            raise AssertionError(f"no live text box over {self.key!r} on the page")
        return data["text"]

    def input(self, text: str) -> AppTest:
        self.at.session_state[self.key] = text
        return self.at


def live_box(at: AppTest, key: str) -> LiveBox:
    return LiveBox(at, key)
