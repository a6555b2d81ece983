"""The demo model is the library's, neutral: in any app it calls the app's own tools by name and describes that app
(its tools by name and description, what the page shows it), so a brand-new app sees its tools work offline, with no
key, and never hears of the demo dashboard. An app scripts more of it with a DemoScript, as the demo dashboard does.

Each test is a page that is not the demo dashboard (a greeting, a board of cards, a trip planner) offering its own
tools to the built-in agent on the demo model, as a new app does; the page's part is played by hand.
"""

from __future__ import annotations

import json
import re

import pytest
from ag_ui.core import BaseEvent, Context, Tool

from copilot_ui.agents import Agent
from copilot_ui.demo.script import DASHBOARD
from copilot_ui.demo.script import PHRASES as DEMO_PHRASES
from copilot_ui.protocol import AGUIThread
from copilot_ui.server import Call, DemoScript, ModelTurn, Move, builtin_agent, demo_model

from ._dashboard import PAGE_TOOLS, dashboard
from ._runs import apply_run, of_type, outcome, pending_calls, reply, run_input, thread_saying

SET_GREETING = Tool(
    name="set_greeting",
    description="Change the greeting the page shows.",
    parameters={"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
)
MOVE_CARD = Tool(
    name="move_card",
    description="Move a card to another column.",
    parameters={
        "type": "object",
        "properties": {"card": {"type": "integer"}, "column": {"type": "string"}},
        "required": ["card", "column"],
    },
)
RESET_PAGE = Tool(name="reset_page", description="Put the page back as it was.", parameters={"type": "object", "properties": {}})
OWN_TOOLS = [SET_GREETING, MOVE_CARD, RESET_PAGE]

TEXT = {"type": "string"}
PLAN_TRIP = Tool(
    name="plan_trip",
    description="Add a trip to the planner.\n\nArgs:\n    destination: Where to.",
    parameters={
        "type": "object",
        "properties": {"destination": TEXT, "nights": {"type": "integer"}},
        "required": ["destination"],
    },
)
DELETE_TRIP = Tool(
    name="delete_trip",
    description="Delete a trip for good. A person approves it first.",
    parameters={"type": "object", "properties": {"trip_id": TEXT}, "required": ["trip_id"]},
)
ASK_NIGHTS = Tool(
    name="ask_nights",
    description="Ask the person how many nights they stay.",
    parameters={"type": "object", "properties": {"trip_id": TEXT, "question": TEXT}, "required": ["trip_id", "question"]},
)
TRIP_TOOLS = [PLAN_TRIP, DELETE_TRIP, ASK_NIGHTS]
TRIPS = [Context(description="The trips on the planner", value=json.dumps({"trips": [{"id": "t4", "to": "Kyoto"}]}))]


@pytest.fixture
def agent() -> Agent:
    """The built-in agent as a new app gets it: the demo model, no backend tools, no pauses."""
    return builtin_agent(demo_model(0))


async def ask(
    agent: Agent, text: str, tools: list[Tool] = OWN_TOOLS, context: list[Context] | None = None
) -> tuple[AGUIThread, list[BaseEvent]]:
    thread = thread_saying(text)
    events = await apply_run(agent, run_input(thread, tools=tools, context=context or []), thread)
    return thread, events


async def answer(agent: Agent, thread: AGUIThread, content: str, error: str | None = None) -> None:
    """The page answers the one pending call, then the follow-up run."""
    [call_id] = outcome(thread).pending_tool_call_ids
    thread.add_tool_result(call_id, content, error=error)
    await apply_run(agent, run_input(thread, tools=OWN_TOOLS), thread)


async def test_the_words_after_a_tools_name_are_its_one_text_parameter(agent: Agent):
    thread, _ = await ask(agent, "set_greeting Good morning")

    assert pending_calls(thread) == [("set_greeting", {"text": "Good morning"})]
    assert thread.messages[-1].content in (None, "")  # no words, just the call


async def test_the_text_is_taken_as_written_over_several_lines(agent: Agent):
    thread, _ = await ask(agent, "  set_greeting   Hello, {world}!\nSee you.  ")

    assert pending_calls(thread) == [("set_greeting", {"text": "Hello, {world}!\nSee you."})]


async def test_a_json_object_after_a_tools_name_is_its_arguments(agent: Agent):
    thread, _ = await ask(agent, 'move_card {"card": 3, "column": "Done"}')

    assert pending_calls(thread) == [("move_card", {"card": 3, "column": "Done"})]


async def test_a_json_object_is_the_arguments_of_a_text_tool_too(agent: Agent):
    thread, _ = await ask(agent, 'set_greeting{"text": "Hi"}')

    assert pending_calls(thread) == [("set_greeting", {"text": "Hi"})]


async def test_a_tool_without_parameters_is_called_by_its_name_alone(agent: Agent):
    thread, _ = await ask(agent, "reset_page")

    assert pending_calls(thread) == [("reset_page", {})]


async def test_the_tools_result_is_reported(agent: Agent):
    thread, _ = await ask(agent, "set_greeting Good morning")

    await answer(agent, thread, "The page now says 'Good morning'.")

    assert reply(thread) == "Done: The page now says 'Good morning'."


async def test_a_failed_call_is_reported_in_words(agent: Agent):
    thread, _ = await ask(agent, 'move_card {"card": 9, "column": "Done"}')

    await answer(agent, thread, "Error: ValueError: there is no card 9", error="ValueError: there is no card 9")

    assert reply(thread) == "That did not happen: there is no card 9."


async def test_words_that_do_not_give_the_arguments_are_answered_with_how_to_call_it(agent: Agent):
    thread, events = await ask(agent, "move_card to the done column")

    assert of_type(events, "TOOL_CALL_START") == []
    assert reply(thread) == 'Nothing changed: to call move_card, write move_card {"card": …, "column": …}.'


async def test_a_text_tool_named_alone_asks_for_its_text(agent: Agent):
    thread, events = await ask(agent, "set_greeting")

    assert of_type(events, "TOOL_CALL_START") == []
    assert reply(thread) == "Nothing changed: to call set_greeting, write set_greeting <text>."


@pytest.mark.parametrize("text", ["set_greeting Good morning", "set_greetings Good morning", "please set_greeting Good day"])
async def test_only_an_offered_tools_exact_name_at_the_start_calls_it(agent: Agent, text: str):
    tools = [MOVE_CARD] if text == "set_greeting Good morning" else OWN_TOOLS

    thread, events = await ask(agent, text, tools=tools)

    assert of_type(events, "TOOL_CALL_START") == []
    assert reply(thread).startswith("I can't answer that one.")


async def test_hello_on_a_page_of_its_own_names_its_tools_and_not_the_dashboards_phrases(agent: Agent):
    thread, _ = await ask(agent, "hello")

    text = reply(thread)
    assert text.startswith("Hello! I'm the demo copilot")
    assert "This page's tools answer to their names: write one first, then what it needs." in text
    assert re.findall(r"^- (.+)$", text, re.MULTILINE) == [
        '`move_card {"card": …, "column": …}`: Move a card to another column.',
        "`reset_page`: Put the page back as it was.",
        "`set_greeting <text>`: Change the greeting the page shows.",
    ]
    assert not any(phrase in text for phrase in DEMO_PHRASES)
    assert "COPILOT_MODEL" in text
    assert "COPILOT_AGENT_URL" in text


# In an app of its own, the demo model describes that app and nothing of the demo dashboard


async def test_what_can_you_do_describes_the_apps_tools_and_what_the_page_shows_it(agent: Agent):
    thread, _ = await ask(agent, "what can you do?", tools=TRIP_TOOLS, context=TRIPS)

    text = reply(thread)
    assert text.startswith("Here is what I can do. I'm the demo copilot, running offline")
    assert re.findall(r"^- (.+)$", text, re.MULTILINE) == [
        '`ask_nights {"trip_id": …, "question": …}`: Ask the person how many nights they stay.',
        "`delete_trip <trip_id>`: Delete a trip for good. A person approves it first.",
        "`plan_trip <destination>`: Add a trip to the planner.",
    ]
    assert "With each message I see what the page sends: The trips on the planner." in text
    for dashboards in ("orders", "Berlin", "refund", "dashboard", "report"):
        assert dashboards not in text


@pytest.mark.parametrize("said", ["refund order 1042", "show orders from Berlin", "ask me something", "draft a weekly report"])
async def test_the_dashboards_phrases_mean_nothing_in_another_app(agent: Agent, said: str):
    thread, events = await ask(agent, said, tools=TRIP_TOOLS, context=TRIPS)

    text = reply(thread)
    assert of_type(events, "TOOL_CALL_START") == []
    assert text.startswith("I can't answer that one. I'm the demo copilot")
    assert "`plan_trip <destination>`" in text
    assert "is not available here" not in text
    assert "Which region should the dashboard focus on?" not in text


async def test_a_page_with_no_tools_is_told_so(agent: Agent):
    thread, _ = await ask(agent, "what can you do?", tools=[])

    assert "This page offers me no tools, so I can only answer in words." in reply(thread)
    assert not any(phrase in reply(thread) for phrase in DEMO_PHRASES)


async def test_thinking_it_through_shows_the_reasoning_before_the_call_in_any_app(agent: Agent):
    thread, events = await ask(agent, "think it through: plan_trip Kyoto", tools=TRIP_TOOLS)

    assert pending_calls(thread) == [("plan_trip", {"destination": "Kyoto"})]
    assert "I call plan_trip" in thread.messages[1].content
    kinds = [event.type.value for event in events]
    assert kinds.index("REASONING_END") < kinds.index("TOOL_CALL_START")


# An app scripts its own offline demo: DemoScript, the hook the demo dashboard uses


def trips_reply(turn: ModelTurn) -> Move | None:
    """The trip planner's script: "plan a trip to <city>" calls plan_trip; its result gets a word of its own."""
    if turn.results:
        return Move(text=f"Bon voyage: {turn.results[0].text}") if turn.results[0].tool == "plan_trip" else None
    if match := re.search(r"\btrip to (\w+)", turn.prompt):
        return Move(calls=(Call("plan_trip", {"destination": match[1]}),))
    return None


TRIPS_SCRIPT = DemoScript(reply=trips_reply, phrases=("plan a trip to Kyoto",), tools=frozenset({"plan_trip"}))


async def test_an_apps_script_adds_its_phrases_and_replies_to_the_demo_model():
    agent = builtin_agent(demo_model(0, script=TRIPS_SCRIPT))

    planned, _ = await ask(agent, "please plan a trip to Lisbon", tools=TRIP_TOOLS)
    await answer_with(agent, planned, "Lisbon is on the planner.", TRIP_TOOLS)
    told, _ = await ask(agent, "what can you do?", tools=TRIP_TOOLS)

    assert pending_calls(planned) == []
    assert planned.messages[1].tool_calls[0].function.name == "plan_trip"
    assert reply(planned) == "Bon voyage: Lisbon is on the planner."
    assert re.findall(r"^- (.+)$", reply(told), re.MULTILINE) == [
        "plan a trip to Kyoto",
        '`ask_nights {"trip_id": …, "question": …}`: Ask the person how many nights they stay.',
        "`delete_trip <trip_id>`: Delete a trip for good. A person approves it first.",
    ]
    assert "This page's other tools answer to their names" in reply(told)


async def test_a_script_leaves_the_tool_named_first_and_other_results_to_the_demo_model():
    agent = builtin_agent(demo_model(0, script=TRIPS_SCRIPT))

    thread, _ = await ask(agent, 'delete_trip {"trip_id": "t4"}', tools=TRIP_TOOLS)
    await answer_with(agent, thread, "Deleted t4.", TRIP_TOOLS)

    assert reply(thread) == "Done: Deleted t4."


async def test_the_dashboards_phrases_work_with_its_script_and_its_tools_answer_to_their_names_too():
    agent = builtin_agent(demo_model(0, script=DASHBOARD))

    by_name, _ = await ask(agent, "set_theme dark", tools=PAGE_TOOLS)
    in_words = thread_saying("switch to dark mode")
    await apply_run(agent, run_input(in_words, tools=PAGE_TOOLS, context=dashboard()), in_words)

    assert pending_calls(by_name) == [("set_theme", {"mode": "dark"})]
    assert pending_calls(in_words) == [("set_theme", {"mode": "dark"})]


async def answer_with(agent: Agent, thread: AGUIThread, content: str, tools: list[Tool]) -> None:
    """The page answers the one pending call, then the follow-up run."""
    [call_id] = outcome(thread).pending_tool_call_ids
    thread.add_tool_result(call_id, content)
    await apply_run(agent, run_input(thread, tools=tools), thread)
