"""The built-in agent on real providers' wire: OpenAI's Responses API (`openai:`) and Chat Completions (`openai-chat:`),
Anthropic (`anthropic:`), and a server with OpenAI's API reached by its base URL (as Ollama, vLLM and LM Studio are).

CopilotKit's mock LLM server stands where the provider would be; each provider is configured as a
person configures it, in the environment, and the real run loop drives the turn: what the person
gets is a streamed reply, the page changed by the tools the model calls, and the follow-up reply.
"""

from __future__ import annotations

from ag_ui.core import BaseEvent, EventType

from copilot_ui.core import Answer, Approve, AwaitingPerson

from ._aimock import Aimock, after_tools, text, tool_calls
from ._providers import Provider, Session

REPLY = (
    "Revenue is up twelve percent on last month, orders are up four, and refunds are down eight: "
    "Berlin leads the cities, ahead of Paris and London."
)
NOTE = "Call Ada Lovelace about order 1042 before Friday: the parcel arrived damaged and she wants a refund."


async def test_the_reply_streams_in_several_pieces(aimock: Aimock, provider: Provider):
    aimock.serve(text("how are we doing", REPLY))
    session = Session()

    outcome = await session.say("how are we doing this month?")

    assert outcome.status == "done"
    assert len(session.pieces()) >= 4
    assert "".join(session.pieces()) == REPLY
    assert session.replies() == [REPLY]


async def test_a_tool_call_streams_its_arguments_changes_the_page_and_the_model_follows_up(aimock: Aimock, provider: Provider):
    aimock.serve(after_tools("note", "The note is on your dashboard."), tool_calls("note", ("write_note", {"text": NOTE})))
    session = Session()

    outcome = await session.say("put a note on the dashboard about Ada's refund")

    assert outcome.status == "done"
    assert len(session.argument_pieces()) >= 3  # the arguments streamed
    assert session.page.note == NOTE  # the page changed
    assert session.replies() == ["The note is on your dashboard."]  # the follow-up
    follow_up = aimock.requests()[-1]["body"]["messages"]
    assert any(m["role"] == "tool" and "The note is on the dashboard." in str(m["content"]) for m in follow_up)
    assert NOTE in " ".join(str(m["content"]) for m in follow_up if m["role"] == "system")  # the page, read afresh


async def test_two_tool_calls_in_one_reply_both_change_the_page(aimock: Aimock, provider: Provider):
    aimock.serve(
        after_tools("dark", "Dark theme, Berlin's orders."),
        tool_calls("dark", ("set_theme", {"mode": "dark"}), ("filter_orders", {"city": "Berlin"})),
    )
    session = Session()

    outcome = await session.say("go dark and show me Berlin")

    assert outcome.status == "done"
    assert (session.page.theme, session.page.city) == ("dark", "Berlin")
    results = [m["content"] for m in aimock.requests()[-1]["body"]["messages"] if m["role"] == "tool"]
    assert [str(result) for result in results] == ["Theme is now dark.", "Showing the orders from Berlin."]
    assert len(aimock.requests()) == 2  # one follow-up for both
    assert session.replies() == ["Dark theme, Berlin's orders."]


async def test_a_question_for_the_person_waits_for_their_answer(aimock: Aimock, provider: Provider):
    aimock.serve(
        after_tools("plan", "Good: I will book the venue first."),
        tool_calls("plan", ("confirm_plan", {"steps": ["Book the venue", "Send the invitations"]})),
    )
    session = Session()

    outcome = await session.say("plan the launch party")

    assert outcome.status == "waiting"
    [question] = session.of(AwaitingPerson)
    assert (question.kind, question.arguments) == ("input", {"steps": ["Book the venue", "Send the invitations"]})
    assert len(aimock.requests()) == 1  # nothing goes to the model until the person answers

    outcome = await session.decide(Answer({"chosen": ["Book the venue"]}))

    assert outcome.status == "done"
    [answer] = [m["content"] for m in aimock.requests()[-1]["body"]["messages"] if m["role"] == "tool"]
    assert "Book the venue" in str(answer) and "Send the invitations" not in str(answer)
    assert session.replies() == ["Good: I will book the venue first."]


async def test_a_call_that_needs_approval_runs_only_once_the_person_approves(aimock: Aimock, provider: Provider):
    aimock.serve(
        after_tools("refund", "Order #1042 is refunded."),
        tool_calls("refund", ("refund_order", {"order_id": "#1042", "reason": "the parcel arrived damaged"})),
    )
    session = Session()

    outcome = await session.say("refund order 1042, it arrived damaged")

    assert outcome.status == "waiting"
    [approval] = session.of(AwaitingPerson)
    assert (approval.kind, approval.tool_name) == ("approval", "refund_order")
    assert session.page.refunded == []

    outcome = await session.decide(Approve())

    assert outcome.status == "done"
    assert session.page.refunded == ["#1042"]
    assert session.replies() == ["Order #1042 is refunded."]


async def test_the_models_reasoning_streams_before_its_reply(aimock: Aimock, provider: Provider):
    thinking = "The person asks about refunds. Refunds fell eight percent, so the answer is good news."
    aimock.serve(text("refunds", "Refunds are down 8%.", reasoning=thinking))
    session = Session()

    outcome = await session.say("how are refunds going?")

    assert outcome.status == "done"
    assert session.reasoning() == thinking
    assert session.replies() == ["Refunds are down 8%."]
    kinds = [event.type for event in session.events if isinstance(event, BaseEvent)]
    assert kinds.index(EventType.TEXT_MESSAGE_CONTENT) > kinds.index(EventType.REASONING_MESSAGE_CONTENT)  # thinking first


async def test_the_agent_knows_its_models_name(provider: Provider):
    assert Session().agent.model_name == provider.model_name  # the copilot's header shows it
