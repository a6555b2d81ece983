"""The customizing guide's French example ("Here is French, whole") sets every label of cui.Labels, each status's word
included, in the order of the reference: a label added to Labels without a translation in the guide fails here."""

from __future__ import annotations

import ast
import dataclasses

from copilot_ui import Labels
from copilot_ui.state.declarations import STATUS_WORDS

from ._blocks import CHECKOUT, python_blocks

GUIDE = CHECKOUT / "docs" / "guides" / "customizing.md"


def french_labels() -> ast.Call:
    """The guide's `FRENCH = cui.Labels(...)`, as written."""
    for block in python_blocks(GUIDE):
        for statement in ast.parse(block.code).body:
            if isinstance(statement, ast.Assign) and getattr(statement.targets[0], "id", "") == "FRENCH":
                assert isinstance(statement.value, ast.Call)
                return statement.value
    raise AssertionError(f"{GUIDE.name} has no FRENCH = cui.Labels(...)")


def test_the_guides_french_sets_every_label_in_the_references_order():
    given = [keyword.arg for keyword in french_labels().keywords]
    labels = [entry.name for entry in dataclasses.fields(Labels)]
    missing = [name for name in labels if name not in given]
    assert not missing, f"the guide's French lacks {', '.join(missing)}"
    assert given == labels, "the guide's French is not in the order of cui.Labels' fields"


def test_the_guides_french_words_every_status():
    statuses = next(keyword.value for keyword in french_labels().keywords if keyword.arg == "statuses")
    assert isinstance(statuses, ast.Dict)
    named = [ast.literal_eval(key) for key in statuses.keys if key is not None]
    assert sorted(named) == sorted(STATUS_WORDS), f"the guide's French statuses lack {set(STATUS_WORDS) - set(named)}"
