"""The demo model, with the demo dashboard's script, shows every capability offline: the built-in agent, run by LocalAgent,
with the client's part played by hand.

Each test asks what a person would type at the demo dashboard, offers the page's tools and context
as the app does, answers the tool calls as the page would, and reads what the person would see.
"""

from __future__ import annotations

import itertools
import json
import re
from typing import Any

import pytest
from ag_ui.core import BaseEvent, Tool

from copilot_ui.agents import Agent
from copilot_ui.demo.report import AgentReport, demo_backend_tools
from copilot_ui.demo.script import DASHBOARD
from copilot_ui.demo.script import PHRASES as DEMO_PHRASES
from copilot_ui.protocol import AGUIThread
from copilot_ui.server import builtin_agent, demo_model

from ._dashboard import PAGE, PAGE_TOOLS, dashboard
from ._runs import apply_run, of_type, outcome, pending_calls, reply, roles, run_input, thread_saying
from ._timed import arrivals, first_arrival, timed_run


@pytest.fixture
def agent() -> Agent:
    """The demo app's default agent: the demo model, the report tool, the shared report; no pauses."""
    return builtin_agent(demo_model(0, script=DASHBOARD), tools=demo_backend_tools(0), state_type=AgentReport)


async def ask(
    agent: Agent, text: str, *, state: Any = None, tools: list[Tool] = PAGE_TOOLS
) -> tuple[AGUIThread, list[BaseEvent]]:
    """The person says this at the dashboard; the agent's first run, applied to a new thread."""
    thread = thread_saying(text, state=state)
    events = await apply_run(agent, run_input(thread, tools=tools, context=dashboard()), thread)
    return thread, events


async def answer(agent: Agent, thread: AGUIThread, *results: str, errors: tuple[str, ...] = (), **page: Any) -> list[BaseEvent]:
    """The page answers the pending calls in order, then the follow-up run, with the page as it is now."""
    for index, (call_id, content) in enumerate(zip(outcome(thread).pending_tool_call_ids, results, strict=True)):
        error = errors[index] if index < len(errors) else None
        thread.add_tool_result(call_id, content, error=error)
    return await apply_run(agent, run_input(thread, tools=PAGE_TOOLS, context=dashboard(**page)), thread)


# Each phrase calls its tool


@pytest.mark.parametrize(
    ("phrase", "tool", "arguments"),
    [
        ("show orders from Berlin", "filter_orders", {"city": "Berlin"}),
        ("Show me the orders in paris", "filter_orders", {"city": "Paris"}),
        ("filter the orders by London", "filter_orders", {"city": "London"}),
        ("show all orders", "filter_orders", {"city": ""}),
        ("show order 1042", "show_order", {"order_id": "#1042"}),
        ("Open order #1037", "show_order", {"order_id": "#1037"}),
        ("refund order 1042", "refund_order", {"order_id": "#1042", "reason": "asked for in the chat"}),
        ("cancel order 1041", "cancel_order", {"order_id": "#1041", "reason": "asked for in the chat"}),
        ("Please cancel order #1043", "cancel_order", {"order_id": "#1043", "reason": "asked for in the chat"}),
        ("which orders are still processing?", "orders_with_status", {"status": "Processing"}),
        ("show the shipped orders", "orders_with_status", {"status": "Shipped"}),
        ("look up the EUR exchange rate", "lookup_rate", {"currency": "EUR"}),
        ("what's the exchange rate for pounds?", "lookup_rate", {"currency": "GBP"}),
        ("copy the revenue to my clipboard", "copy_to_clipboard", {"text": "$48,210"}),
        ("Copy the number of orders to the clipboard", "copy_to_clipboard", {"text": "1,284"}),
        ("switch to dark mode", "set_theme", {"mode": "dark"}),
        ("Light mode, please", "set_theme", {"mode": "light"}),
        ("ask me something", "ask_user", {"question": "Which region should the dashboard focus on?"}),
    ],
)
async def test_each_request_calls_its_tool_on_the_page(agent: Agent, phrase: str, tool: str, arguments: dict[str, Any]):
    thread, _ = await ask(agent, phrase)

    assert pending_calls(thread) == [(tool, arguments)]
    assert thread.messages[-1].content in (None, "")  # no words, just the call


async def test_tool_arguments_stream_in_several_pieces(agent: Agent):
    thread, events = await ask(agent, "refund order 1042")

    [call_id] = outcome(thread).pending_tool_call_ids
    pieces = [event.delta for event in of_type(events, "TOOL_CALL_ARGS") if event.tool_call_id == call_id]
    assert len(pieces) >= 3
    assert json.loads("".join(pieces)) == {"order_id": "#1042", "reason": "asked for in the chat"}


async def test_a_tool_the_page_does_not_offer_is_not_called(agent: Agent):
    thread, events = await ask(agent, "show orders from Berlin", tools=[])

    assert of_type(events, "TOOL_CALL_START") == []
    assert reply(thread) == "I would use the filter_orders tool for that, but it is not available here, so nothing changed."


# Replies after the page answered


async def test_filtered_orders_are_counted_from_the_tools_result(agent: Agent):
    thread, _ = await ask(agent, "show orders from Berlin")

    await answer(agent, thread, "Showing 2 orders from Berlin.")

    assert reply(thread) == "Done: the Orders table shows 2 orders from Berlin."


async def test_a_shown_order_is_described_from_the_tools_result(agent: Agent):
    thread, _ = await ask(agent, "show order 1042")

    order = {"id": "#1042", "customer": "Ada Lovelace", "city": "Berlin", "total": "$120.00", "status": "Shipped"}
    await answer(agent, thread, json.dumps(order))

    assert reply(thread) == "Here is order #1042: Ada Lovelace, Berlin, $120.00, Shipped."


async def test_the_orders_still_processing_are_listed_from_the_tools_result(agent: Agent):
    thread, _ = await ask(agent, "which orders are still processing?")

    processing = [{"id": "#1041", "customer": "Alan Turing", "city": "London", "total": "$89.50"}]
    await answer(agent, thread, json.dumps(processing))

    assert reply(thread) == "1 order is still processing: #1041 (Alan Turing, London). The Orders table shows it."


async def test_a_message_written_instead_of_approving_is_what_gets_answered(agent: Agent):
    thread, _ = await ask(agent, "refund order 1042")
    (call_id,) = outcome(thread).pending_tool_call_ids
    thread.add_tool_result(call_id, "Error: not run: the user wrote a new message instead", error="skipped")
    thread.add_user_message("what is our revenue this month?")
    await apply_run(agent, run_input(thread, tools=PAGE_TOOLS, context=dashboard()), thread)

    assert reply(thread) == "Revenue this month is $48,210 (+12% vs last month)."


async def test_what_can_you_do_is_answered_with_what_it_can_do(agent: Agent):
    thread, _ = await ask(agent, "what can you do?")

    assert reply(thread).startswith("Here is what I can do. I'm the demo copilot")
    assert "- which orders are still processing?" in reply(thread)


async def test_an_approved_refund_reports_the_status_the_page_shows_afterwards(agent: Agent):
    thread, _ = await ask(agent, "refund order 1042")
    refunded = [dict(order, status="Refunded") if order["id"] == "#1042" else order for order in PAGE["orders"]]

    await answer(agent, thread, "Refunded order #1042 ($120.00 to Ada Lovelace).", orders=refunded)

    assert reply(thread) == ("Done: Refunded order #1042 ($120.00 to Ada Lovelace). The dashboard lists order #1042 as Refunded.")


async def test_a_denied_refund_quotes_the_persons_reason(agent: Agent):
    thread, _ = await ask(agent, "refund order 1042")

    reason = "denied by the user: the customer kept the parcel"
    await answer(agent, thread, f"Error: {reason}", errors=(reason,))

    assert reply(thread) == "That did not happen: denied by the user: the customer kept the parcel."


async def test_a_plan_names_exactly_the_steps_the_person_chose_in_order(agent: Agent):
    thread, _ = await ask(agent, "plan a product launch")
    [(tool, arguments)] = pending_calls(thread)
    assert tool == "confirm_plan"
    assert len(arguments["steps"]) == 5
    chosen = [arguments["steps"][0], arguments["steps"][1], arguments["steps"][3]]

    await answer(agent, thread, json.dumps(chosen))

    assert reply(thread) == "Great: the plan has 3 steps: Pick a date, Write the announcement and Brief the sales team."


async def test_comparing_two_cities_calls_city_sales_twice_in_one_reply(agent: Agent):
    thread, _ = await ask(agent, "compare Berlin and Paris")

    assert pending_calls(thread) == [("city_sales", {"city": "Berlin"}), ("city_sales", {"city": "Paris"})]
    assert roles(thread.messages) == ["user", "assistant"]  # both calls in the one assistant message

    await answer(agent, thread, "Berlin: $18,420 from 3 orders", "Paris: $15,310 from 2 orders")

    assert roles(thread.messages) == ["user", "assistant", "tool", "tool", "assistant"]
    assert reply(thread) == "Berlin: $18,420 from 3 orders. Paris: $15,310 from 2 orders. Berlin sells more."


async def test_the_exchange_rate_is_quoted_from_the_tools_result(agent: Agent):
    thread, _ = await ask(agent, "look up the EUR exchange rate")

    await answer(agent, thread, "1 EUR = 1.08 USD")

    assert reply(thread) == "The exchange rate: 1 EUR = 1.08 USD."


async def test_the_copied_text_is_named_in_the_reply(agent: Agent):
    thread, _ = await ask(agent, "copy the revenue to my clipboard")

    await answer(agent, thread, "Copied 7 characters to the clipboard.")

    assert reply(thread) == "I copied $48,210 to your clipboard."


async def test_dark_mode_is_confirmed_with_the_theme_the_page_shows(agent: Agent):
    thread, _ = await ask(agent, "switch to dark mode")

    await answer(agent, thread, "Theme is now dark.", theme="dark")

    assert reply(thread) == "Done: Theme is now dark. The dashboard now shows the dark theme."


async def test_the_persons_answer_is_repeated(agent: Agent):
    thread, _ = await ask(agent, "ask me something")

    await answer(agent, thread, "Europe")

    assert reply(thread) == "Done: Europe"


async def test_a_failing_tool_is_reported_in_words(agent: Agent):
    thread, _ = await ask(agent, "show order 1099")

    await answer(agent, thread, "Error: ValueError: there is no order #1099", errors=("ValueError: there is no order #1099",))

    assert reply(thread) == "That did not happen: there is no order #1099."


async def test_a_tool_the_servers_stop_cut_short_is_called_again_on_retry(agent: Agent):
    thread, _ = await ask(agent, "look up the EUR exchange rate")
    first = pending_calls(thread)
    stopped = "Error: aborted: the run was stopped while this tool ran"

    await answer(agent, thread, stopped, errors=("aborted: the run was stopped while this tool ran",))

    assert pending_calls(thread) == first == [("lookup_rate", {"currency": "EUR"})]  # called again, as asked to go on
    assert roles(thread.messages) == ["user", "assistant", "tool", "assistant"]


# Answers from the page's context


async def test_revenue_is_answered_from_the_context_without_a_tool(agent: Agent):
    thread, events = await ask(agent, "What is our revenue this month?")

    assert of_type(events, "TOOL_CALL_START") == []
    assert reply(thread) == "Revenue this month is $48,210 (+12% vs last month)."


async def test_the_revenue_answer_follows_the_context_sent_with_the_request(agent: Agent):
    thread = thread_saying("what is our revenue this month?")
    context = dashboard(kpis={**PAGE["kpis"], "Revenue": "$51,003"}, kpi_changes={"Revenue": "+19% vs last month"})

    await apply_run(agent, run_input(thread, tools=PAGE_TOOLS, context=context), thread)

    assert reply(thread) == "Revenue this month is $51,003 (+19% vs last month)."


async def test_thinking_it_through_shows_reasoning_before_the_answer(agent: Agent):
    thread, events = await ask(agent, "think it through: which city sells most?")

    kinds = [event.type.value for event in events]
    assert kinds.index("REASONING_START") < kinds.index("REASONING_END") < kinds.index("TEXT_MESSAGE_CONTENT")
    assert len(of_type(events, "REASONING_MESSAGE_CONTENT")) > 10  # streamed, word by word
    assert roles(thread.messages) == ["user", "reasoning", "assistant"]
    assert "Berlin $18,420" in thread.messages[1].content
    assert reply(thread) == "Berlin sells most: $18,420, ahead of Paris ($15,310) and London ($14,480)."


async def test_the_reasoning_takes_about_a_second_at_the_demo_pace():
    agent = builtin_agent(demo_model(script=DASHBOARD))
    thread = thread_saying("think it through: which city sells most?")

    timed = await timed_run(agent, run_input(thread, context=dashboard()), thread)

    reasoning = arrivals(timed, "REASONING_MESSAGE_CONTENT")
    assert 0.6 < reasoning[-1] - reasoning[0] < 2.0


# The shared report


async def test_a_weekly_report_is_written_into_the_shared_state_bit_by_bit(agent: Agent):
    thread, events = await ask(agent, "draft a weekly report", state={})

    deltas = of_type(events, "STATE_DELTA")
    patches = [event.model_dump(mode="json")["delta"] for event in deltas]
    drafts = [operation["value"] for patch in patches for operation in patch if operation["path"] == "/report"]
    assert len(drafts) >= 4
    assert all(later.startswith(earlier) and later != earlier for earlier, later in itertools.pairwise(drafts))
    report = thread.state["report"]
    assert report == drafts[-1]
    for figure in ("$48,210", "+12% vs last month", "1,284", "23", "Berlin", "$18,420"):
        assert figure in report
    kinds = [event.type.value for event in events]
    assert kinds.index("STATE_DELTA") > kinds.index("TOOL_CALL_END")  # written by the tool, as it runs
    assert outcome(thread).pending_tool_call_ids in (None, [])  # a backend tool: nothing for the page to run
    assert reply(thread) == "The weekly report draft is in the Report draft panel."


async def test_the_report_panel_fills_over_a_second_or_two_at_the_demo_pace():
    agent = builtin_agent(demo_model(0, script=DASHBOARD), tools=demo_backend_tools(), state_type=AgentReport)
    thread = thread_saying("draft a weekly report")

    timed = await timed_run(agent, run_input(thread, context=dashboard()), thread)

    written = arrivals(timed, "STATE_DELTA")
    assert 0.8 < written[-1] - written[0] < 3.0


async def test_shortening_starts_from_the_report_as_the_person_edited_it(agent: Agent):
    edited = (
        "Edited by hand: sales grew again this week, led by Berlin.\n\n"
        "Paris and London held steady. Refunds fell for the third week in a row.\n\n"
        "We shipped most orders on time. Two customers asked about faster delivery.\n\n"
        "Next week we review the delivery partners."
    )
    thread, events = await ask(agent, "shorten the report", state={"report": edited})

    shorter = thread.state["report"]
    assert shorter.startswith("Edited by hand: sales grew again this week, led by Berlin.")
    assert len(shorter.split()) < len(edited.split())
    assert len(of_type(events, "STATE_DELTA")) >= 2
    assert reply(thread) == (
        f"Shortened the report from {len(edited.split())} to {len(shorter.split())} words. "
        "It began: “Edited by hand: sales grew again this week,…”"
    )


async def test_shortening_the_drafted_report_halves_it_at_least(agent: Agent):
    drafted, _ = await ask(agent, "draft a weekly report")
    report = drafted.state["report"]

    thread, _ = await ask(agent, "Please make the report shorter", state={"report": report})

    assert len(thread.state["report"].split()) <= len(report.split()) / 2
    assert reply(thread).startswith(f"Shortened the report from {len(report.split())} to ")


async def test_with_no_report_there_is_nothing_to_shorten(agent: Agent):
    thread, events = await ask(agent, "shorten the report", state={"report": ""})

    assert of_type(events, "TOOL_CALL_START") == []
    assert reply(thread) == "There is no report to shorten yet. Ask me to draft a weekly report first."


# Pace


async def test_the_first_word_comes_at_once_whatever_the_pace():
    agent = builtin_agent(demo_model(0.5, script=DASHBOARD))
    thread = thread_saying("what is our revenue this month?")

    first_word = await first_arrival(agent, run_input(thread, context=dashboard()), "TEXT_MESSAGE_CONTENT")

    assert first_word < 0.3  # the pause is between words, not before the first


async def test_a_tool_calls_first_arguments_come_at_once_whatever_the_pace():
    agent = builtin_agent(demo_model(0.5, script=DASHBOARD))
    thread = thread_saying("switch to dark mode")

    first_piece = await first_arrival(agent, run_input(thread, tools=PAGE_TOOLS, context=dashboard()), "TOOL_CALL_ARGS")

    assert first_piece < 0.3


# Hello, and anything else


async def test_hello_is_greeted_as_before(agent: Agent):
    thread, _ = await ask(agent, "hello")

    assert reply(thread).startswith("Hello! I'm the demo copilot")
    assert "Connect a real model or any AG-UI agent server" in reply(thread)


async def test_anything_else_lists_every_phrase_and_how_to_connect_a_real_agent(agent: Agent):
    thread, events = await ask(agent, "what's the weather like?")

    text = reply(thread)
    assert of_type(events, "TOOL_CALL_START") == []
    assert "offline" in text
    listed = re.findall(r"^- (.+)$", text, re.MULTILINE)
    assert listed == list(DEMO_PHRASES)
    assert "COPILOT_MODEL" in text
    assert "COPILOT_AGENT_URL" in text


@pytest.mark.parametrize("phrase", DEMO_PHRASES)
async def test_every_listed_phrase_is_understood(agent: Agent, phrase: str):
    thread, events = await ask(agent, phrase, state={"report": "A report to shorten. It has two sentences."})

    assert "I can't answer that one" not in (thread.messages[-1].content or "")
    assert of_type(events, "TOOL_CALL_START") or of_type(events, "TEXT_MESSAGE_CONTENT")
