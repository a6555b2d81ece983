"""The demo model calls any app's own tools by name, so a brand-new app sees its tool work offline, with no key.

Each test is a page that is not the demo dashboard (a greeting, a board of cards) offering its own tools
to the built-in agent on the demo model, as a new app does; the page's part is played by hand.
"""

from __future__ import annotations

import pytest
from ag_ui.core import BaseEvent, Tool

from copilot_ui.agents import Agent
from copilot_ui.protocol import Thread
from copilot_ui.server import DEMO_PHRASES, builtin_agent, demo_model

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


@pytest.fixture
def agent() -> Agent:
    """The built-in agent as a new app gets it: the demo model, no backend tools, no pauses."""
    return builtin_agent(demo_model(0))


async def ask(agent: Agent, text: str, tools: list[Tool] = OWN_TOOLS) -> tuple[Thread, list[BaseEvent]]:
    thread = thread_saying(text)
    events = await apply_run(agent, run_input(thread, tools=tools), thread)
    return thread, events


async def answer(agent: Agent, thread: Thread, content: str, error: str | None = None) -> None:
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
    assert "This page's own tools answer to their names: " in text
    assert '`move_card {"card": …, "column": …}`, `reset_page`, `set_greeting <text>`.' in text
    assert not any(phrase in text for phrase in DEMO_PHRASES)
    assert "COPILOT_MODEL" in text
    assert "COPILOT_AGENT_URL" in text


async def test_the_dashboards_tools_answer_to_their_names_too_and_its_phrases_still_work(agent: Agent):
    by_name, _ = await ask(agent, "set_theme dark", tools=PAGE_TOOLS)
    in_words = thread_saying("switch to dark mode")
    await apply_run(agent, run_input(in_words, tools=PAGE_TOOLS, context=dashboard()), in_words)

    assert pending_calls(by_name) == [("set_theme", {"mode": "dark"})]
    assert pending_calls(in_words) == [("set_theme", {"mode": "dark"})]
