"""The approval dialog's sentence: the app's describe= of the call, else the tool's description."""

from __future__ import annotations

import json
import logging

import pytest
from ag_ui.core import FunctionCall, ToolCall

from copilot_ui.core import tool_from_function
from copilot_ui.state.declarations import ToolUI
from copilot_ui.state.view import approval_request


def delete_recipe(name: str) -> str:
    """Delete a recipe from the recipe box. A person approves it first."""
    return f"Deleted {name}."


def sentence(arguments: str, ui: ToolUI) -> str:
    call = ToolCall(id="call-1", function=FunctionCall(name="delete_recipe", arguments=arguments))
    tool = tool_from_function(delete_recipe)
    return approval_request("item-1", "digest", call, json.loads(arguments), tool, ui)["sentence"]


def test_the_dialog_says_what_describe_makes_of_the_arguments():
    ui = ToolUI(describe=lambda a: f"Delete {a.name} for good.")
    assert sentence('{"name": "Pancakes"}', ui) == "Delete Pancakes for good."


def test_a_describe_that_fails_shows_the_description_and_tells_the_developer_once(caplog: pytest.LogCaptureFixture):
    ui = ToolUI(describe=lambda a: f"Delete {a.nmae} for good.")
    with caplog.at_level(logging.WARNING, logger="copilot_ui"):
        first = sentence('{"name": "Pancakes"}', ui)
        again = sentence('{"name": "Lasagne"}', ui)
    assert first == again == "Delete a recipe from the recipe box. A person approves it first."
    told = [record for record in caplog.records if "describe=" in record.getMessage()]
    assert len(told) == 1
    assert "delete_recipe" in told[0].getMessage() and "nmae" in told[0].exc_text


def test_arguments_that_do_not_fit_show_the_description_without_blaming_the_app(caplog: pytest.LogCaptureFixture):
    ui = ToolUI(describe=lambda a: f"Delete {a.name} for good.")
    with caplog.at_level(logging.WARNING, logger="copilot_ui"):
        assert sentence('{"title": 4}', ui) == "Delete a recipe from the recipe box. A person approves it first."
    assert not caplog.records
