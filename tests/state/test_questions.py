"""A question for the person (`cui.human_in_the_loop`) whose answer changes the page, and the forms that answer
typed questions. Driven through Reflex's event processor and the real run loop (copilot_ui.testing), the agent
scripted: the page's state, the card the person sees and what the agent reads are the app's own."""

from __future__ import annotations

import reflex as rx
from ag_ui.core import ToolMessage

import copilot_ui as cui
from copilot_ui.state import CopilotState
from copilot_ui.state._forms import RESPOND_DIGEST, RESPOND_ITEM


class TripsState(rx.State):
    nights: dict[str, int] = rx.field(default_factory=dict)  # trip -> nights the person stays


@cui.human_in_the_loop(state=TripsState)
def ask_nights_for_trip(state: TripsState, trip_id: str, answer: int) -> str:
    """Ask the person how many nights they stay on a trip."""
    state.nights = {**state.nights, trip_id: answer}
    return f"{answer} nights in {trip_id}"


@cui.context(TripsState, description="The trips")
def trips_context(state: TripsState) -> dict:
    return {"nights": state.nights}


def test_a_questions_answer_changes_the_page_before_the_agent_goes_on(copilot):
    copilot.agent.calls("ask_nights_for_trip", trip_id="kyoto").says("Kyoto is booked.")
    copilot.say("plan my Kyoto trip")
    assert copilot.waiting == "ask_nights_for_trip"

    copilot.answer(4)

    assert copilot.state(TripsState).nights == {"kyoto": 4}  # the page shows it
    assert copilot.agent.seen_context["The trips"] == {"nights": {"kyoto": 4}}  # the follow-up run saw it
    [call] = copilot.tool_calls
    assert (call.status, call.text) == ("complete", "4 nights in kyoto")
    assert copilot.replies == ["Kyoto is booked."]


def answer_with_form(copilot, **fields: str) -> None:
    """Send the waiting question's form (ToolCallView.form) with these fields, as the browser sends it."""
    _where, _tool, item_id, digest = copilot._waiting("input")
    copilot._step(CopilotState.respond_form({RESPOND_ITEM: item_id, RESPOND_DIGEST: digest, **fields}))


def test_a_form_of_one_field_answers_a_number_question_with_that_number(copilot):
    copilot.agent.calls("ask_nights_for_trip", trip_id="lisbon").says("Lisbon is booked.")
    copilot.say("plan my Lisbon trip")

    answer_with_form(copilot, nights="4")  # a form's field is text

    assert copilot.state(TripsState).nights == {"lisbon": 4}
    assert copilot.tool_calls[0].text == "4 nights in lisbon"


def test_an_answer_that_does_not_fit_is_said_in_the_labels_words_and_the_agent_reads_why(copilot):
    copilot.agent.calls("ask_nights_for_trip", trip_id="porto").says("I will ask again.")
    copilot.say("plan my Porto trip")

    answer_with_form(copilot, nights="four")

    [call] = copilot.tool_calls
    assert call.status == "error"
    assert call.text == "Your answer “four” could not be used; the copilot was told why."
    assert copilot.state(TripsState).nights == {}  # nothing changed
    [result] = [message for message in copilot.agent.last_input.messages if isinstance(message, ToolMessage)]
    assert "Input should be a valid integer" in result.content and "they answered: four" in result.content
