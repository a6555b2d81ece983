"""A tool is declared by writing a Python function: its schema and validation come from the hints."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Annotated, Literal

import pytest
from pydantic import BaseModel, Field

from copilot_ui.core import ArgumentsInvalid, Session, Toolbox, ToolContext, tool_from_function
from copilot_ui.errors import DeclarationError


class Step(BaseModel):
    title: str
    done: bool = False


@dataclass
class Point:
    x: int
    y: int


def plan(steps: list[Step], owner: Annotated[str, "who carries the plan out"] = "me") -> str:
    """Propose a plan of steps.

    Args:
        steps: The steps, in order.
    """
    return f"{len(steps)} steps for {owner}"


def test_the_docstring_describes_the_tool_and_its_arguments():
    tool = tool_from_function(plan)
    assert tool.name == "plan"
    assert tool.description == "Propose a plan of steps."
    properties = tool.parameters["properties"]
    assert properties["steps"]["description"] == "The steps, in order."
    assert properties["owner"]["description"] == "who carries the plan out"


def test_a_literal_becomes_an_enum_and_defaults_are_kept():
    def set_theme(mode: Literal["light", "dark"], animate: bool = True) -> None:
        """Switch the theme."""

    schema = tool_from_function(set_theme).parameters
    assert schema["properties"]["mode"]["enum"] == ["light", "dark"]
    assert schema["properties"]["animate"]["default"] is True
    assert schema["required"] == ["mode"]
    assert schema["type"] == "object"


def test_nested_models_are_inlined_for_providers_that_do_not_follow_references():
    schema = tool_from_function(plan).parameters
    items = schema["properties"]["steps"]["items"]
    assert "$ref" not in str(schema)
    assert items["properties"]["title"]["type"] == "string"
    assert "title" not in items  # pydantic's titles are noise to a model


def test_field_descriptions_from_pydantic_are_kept():
    def search(query: Annotated[str, Field(description="words to look for", min_length=2)]) -> None:
        """Search."""

    schema = tool_from_function(search).parameters
    assert schema["properties"]["query"]["description"] == "words to look for"
    assert schema["properties"]["query"]["minLength"] == 2


def test_valid_arguments_arrive_typed():
    def move(to: Point, steps: list[Step]) -> None:
        """Move."""

    kwargs = tool_from_function(move).validate({"to": {"x": 1, "y": "2"}, "steps": [{"title": "go"}]})
    assert kwargs["to"] == Point(1, 2)
    assert kwargs["steps"] == [Step(title="go")]


def test_invalid_arguments_list_every_field_that_is_wrong():
    def move(to: Point, speed: Literal["slow", "fast"]) -> None:
        """Move."""

    with pytest.raises(ArgumentsInvalid) as raised:
        tool_from_function(move).validate({"to": {"x": "left"}, "speed": "warp"})
    message = str(raised.value)
    assert "move" in message
    assert "to.x" in message
    assert "to.y" in message
    assert "speed" in message


def test_the_context_parameter_and_the_state_are_not_arguments():
    class Board:
        pass

    async def mark(board: Board, cell: int, context: ToolContext) -> str:
        """Mark a cell."""
        return f"{cell}"

    tool = tool_from_function(mark, state=Board)
    assert list(tool.parameters["properties"]) == ["cell"]
    assert tool.context_parameter == "context"


def test_a_function_with_star_arguments_cannot_be_a_tool():
    def anything(*values: int) -> None:
        """Sum."""

    with pytest.raises(TypeError, match="cannot be described"):
        tool_from_function(anything)


class Lamp:  # a plain class: JSON Schema cannot describe it
    pass


def test_a_parameter_of_a_type_no_schema_describes_is_an_error_naming_the_tool_and_the_parameter():
    def switch(room: str, lamp: Lamp) -> None:
        """Switch a lamp."""

    with pytest.raises(DeclarationError) as raised:
        tool_from_function(switch)
    assert str(raised.value).startswith(
        "tool switch: the type of its parameter lamp (Lamp) cannot be described to the agent; a parameter takes a type"
    )


def test_the_toolbox_offers_only_tools_available_on_the_page_and_for_the_agent():
    def orders() -> None:
        """Orders page only."""

    def research() -> None:
        """For the research agent."""

    def everywhere() -> None:
        """Always."""

    box = Toolbox(
        [
            tool_from_function(orders, available=lambda session: session.page == "/orders"),
            tool_from_function(research, agent="research"),
            tool_from_function(everywhere),
        ]
    )
    assert box.names("default", Session(page="/")) == ["everywhere"]
    assert box.names("default", Session(page="/orders")) == ["everywhere", "orders"]
    assert box.names("research", Session(page="/")) == ["everywhere", "research"]
    assert [tool.name for tool in box.ag_ui_tools("default", Session())] == ["everywhere"]


def test_a_tool_scoped_to_the_running_agent_wins_over_a_global_one():
    def lookup() -> str:
        """Global."""
        return "global"

    def lookup_for_research() -> str:
        """Scoped."""
        return "scoped"

    box = Toolbox([tool_from_function(lookup), tool_from_function(lookup_for_research, name="lookup", agent="research")])
    assert box.find("lookup", "research").description == "Scoped."
    assert box.find("lookup", "default").description == "Global."
    assert box.ag_ui_tools("research", Session())[0].description == "Scoped."


def test_the_wildcard_takes_only_calls_no_tool_claims_and_is_never_offered():
    def fallback(name: str, arguments: dict) -> str:
        return name

    def known() -> None:
        """Known."""

    box = Toolbox([tool_from_function(fallback, name="*", kind="wildcard"), tool_from_function(known)])
    assert box.find("known", "default").name == "known"
    assert box.find("other", "default").name == "*"
    assert box.names("default", Session()) == ["known"]


def test_an_array_sent_as_a_json_string_is_decoded_where_the_schema_wants_an_array():
    def tag(labels: list[str], note: str) -> None:
        """Tag."""

    kwargs = tool_from_function(tag).validate({"labels": '["urgent", "vip"]', "note": '["kept as text"]'})
    assert kwargs == {"labels": ["urgent", "vip"], "note": '["kept as text"]'}


async def test_a_form_of_one_field_answers_a_question_whose_type_takes_no_dict_with_that_fields_value():
    def nights_for(trip_id: str, answer: int) -> str:
        """How many nights?"""
        return f"{answer} nights in {trip_id}"

    def trip_form(answer: dict[str, str]) -> dict[str, str]:
        """A form of the trip's fields."""
        return answer

    assert await tool_from_function(nights_for, kind="human").answered({"trip_id": "t1"}, {"nights": "4"}) == "4 nights in t1"
    assert await tool_from_function(trip_form, kind="human").answered({}, {"nights": "4"}) == {"nights": "4"}


def test_two_functions_declared_under_one_name_are_named_in_a_warning(caplog: pytest.LogCaptureFixture):
    def refund(order_id: str) -> str:
        """Refund an order (a person approves it)."""
        return "refunded"

    def refund_quietly(order_id: str) -> str:
        """Refund an order."""
        return "refunded"

    toolbox = Toolbox()
    toolbox.add(tool_from_function(refund, approval="always"))
    with caplog.at_level(logging.INFO, logger="copilot_ui.core"):
        toolbox.add(tool_from_function(refund))  # the same function again (its module imported again): a note
        toolbox.add(tool_from_function(refund_quietly, name="refund"))
    said = [(record.levelname, record.getMessage()) for record in caplog.records]
    assert said[0] == ("INFO", "tool 'refund' registered again; the latest registration wins")
    level, message = said[1]
    assert level == "WARNING" and message.startswith("tool 'refund' is declared by ") and "refund_quietly" in message
    assert message.endswith("the latest wins. Give one of them another name=.")
