"""The layering rule: the protocol, the agents and the loop work without Reflex, so importing them loads none of it."""

from __future__ import annotations

import json

import pytest

from tests._processes import python_prints

REPORT_REFLEX_MODULES = """
import json, sys
import {module}
print(json.dumps(sorted(name for name in sys.modules if name.split(".")[0].startswith("reflex"))))
"""


def reflex_modules_after_importing(module):
    return json.loads(python_prints(REPORT_REFLEX_MODULES.format(module=module)))


@pytest.mark.parametrize("module", ["copilot_ui.protocol", "copilot_ui.agents", "copilot_ui.core"])
def test_importing_a_reflex_free_layer_imports_no_reflex(module):
    assert reflex_modules_after_importing(module) == []


def test_the_check_sees_reflex_when_it_is_imported():
    assert "reflex" in reflex_modules_after_importing("reflex")
