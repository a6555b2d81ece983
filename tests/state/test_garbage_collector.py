"""A worker's garbage collector once its first tab arrives: what the app made while starting is frozen, the youngest
generation is passed over every 2,000 new objects (not Python 3.11's 700), and an app's own thresholds stand. Each
case runs in a process of its own: the collector's settings are the process's."""

from __future__ import annotations

import json
import sys

from copilot_ui.state._garbage_collector import PYTHON_DEFAULT
from tests._processes import python_prints

# A tab of the demo app arrives (the testing kit's headless session), its collector's settings printed as JSON.
FIRST_TAB = """
import gc, json, tempfile
from pathlib import Path
{before}
from copilot_ui.testing._fixture import copilot_session
before = gc.get_threshold()
with copilot_session(Path(tempfile.mkdtemp())) as tab:
    tab.say("hello")
    print(json.dumps({{"before": before, "after": gc.get_threshold(), "frozen": gc.get_freeze_count()}}))
"""


def _collector_after_the_first_tab(before: str = "") -> dict[str, list[int] | int]:
    return json.loads(python_prints(FIRST_TAB.format(before=before)).strip().splitlines()[-1])


def test_the_first_tab_freezes_what_the_app_made_and_passes_over_young_objects_every_2000() -> None:
    collector = _collector_after_the_first_tab()
    if sys.version_info < (3, 13):  # (Python 3.13 passes over them every 2,000 already: its thresholds stand)
        assert collector["before"] == list(PYTHON_DEFAULT)
        assert collector["after"] == [2000, 10, 10]
    assert isinstance(collector["after"], list) and collector["after"][0] >= 2000
    assert isinstance(collector["frozen"], int) and collector["frozen"] > 10_000  # the modules, the app, the schemas


def test_thresholds_the_app_set_stand() -> None:
    collector = _collector_after_the_first_tab("gc.set_threshold(500, 20, 5)")
    assert collector["after"] == [500, 20, 5]
    assert isinstance(collector["frozen"], int) and collector["frozen"] > 10_000
