"""An app's own buttons drive the copilot: one sends a message as if the person had typed it (`cui.send_message`),
one runs an agent task without the chat (`cui.run_task`). Driven through Reflex's event processor and the real run
loop (copilot_ui.testing), the agent scripted; the app is the testing guide's (tests/testing_kit/dashboard.py)."""

from __future__ import annotations

import asyncio
import contextlib
import json
from types import SimpleNamespace

import pytest
import reflex as rx

import copilot_ui as cui
from copilot_ui.agents._scripted import Pause
from copilot_ui.agents.scripts import error_reply, text_reply
from copilot_ui.core import LoopLimits
from copilot_ui.state import ApprovalState, CopilotState, TaskState, _closed_sessions
from copilot_ui.state._closed_sessions import release_closed
from copilot_ui.state._task_cards import SHOWN_LIMIT
from copilot_ui.testing import CopilotSession
from tests.testing_kit.dashboard import DashboardState

# A button that sends a message


def test_a_button_sends_its_message_as_the_persons_and_the_agent_answers_it(copilot):
    copilot.agent.says("Revenue grew 12% on Berlin's orders.")
    copilot.click(DashboardState.explain_revenue)
    assert [(item.kind, item.text) for item in copilot.conversation] == [
        ("user", "Explain the revenue chart"),
        ("assistant", "Revenue grew 12% on Berlin's orders."),
    ]
    assert copilot.agent.seen_context["The dashboard"]["orders"]["#1042"] == "Paris"  # the page's context went with it
    assert "filter_orders" in copilot.agent.offered_tools


def test_the_copilot_opens_before_the_message_shows(copilot):
    copilot.agent.says("Here is the chart.")
    copilot.click(DashboardState.explain_revenue)
    scripts = [payload["javascript_code"] for name, payload in copilot.browser_events if name == "_call_script"]
    opening = next(i for i, script in enumerate(scripts) if '"cui-layout"' in script)
    shown = next(i for i, script in enumerate(scripts) if "Explain the revenue chart" in script)
    assert '{detail: "open"}' in scripts[opening]
    assert opening < shown


def test_a_button_pressed_while_the_agent_works_queues_its_message(copilot):
    copilot.agent.add([Pause(0.6), *text_reply("First answer.")])
    copilot.agent.says("About the revenue.")
    app = copilot._app
    typed = app.call(app.dispatch(copilot.token, CopilotState.send({"message": "hello"}), copilot._router_data()))
    copilot._opened = True  # (the message above opened the page)
    while not copilot.agent.inputs:  # the first run is under way
        app.call(asyncio.sleep(0.02))
    copilot.click(DashboardState.explain_revenue)
    app.call(asyncio.wait_for(typed, 10))
    assert [(item.kind, item.text) for item in copilot.conversation] == [
        ("user", "hello"),
        ("assistant", "First answer."),
        ("user", "Explain the revenue chart"),
        ("assistant", "About the revenue."),
    ]


def test_a_button_message_whose_tool_needs_approval_waits_for_it(copilot):
    copilot.agent.calls("refund_order", order_id="#1042", reason="late").says("Refunded.")
    copilot.click(DashboardState.explain_revenue)
    assert copilot.waiting == "refund_order"
    assert copilot.state(DashboardState).refunded == []
    copilot.deny("not this one")
    assert copilot.state(DashboardState).refunded == []
    assert copilot.tool_calls[0].status == "denied"


# A button that runs an agent task


def test_a_task_returns_the_agents_text_to_the_handler_and_stays_out_of_the_conversation(copilot):
    copilot.agent.calls("filter_orders", city="Berlin").says("2 orders from Berlin, none refunded.")
    copilot.click(DashboardState.summarize)
    dashboard = copilot.state(DashboardState)
    assert dashboard.summary == "2 orders from Berlin, none refunded."
    assert dashboard.task_calls == ["filter_orders: complete"]
    assert dashboard.city == "Berlin"  # its tool changed the page
    assert copilot.conversation == []
    assert [(card.tool, card.status, card.text) for card in copilot.task_cards] == [
        ("filter_orders", "complete", "Showing the orders from Berlin.")
    ]
    assert copilot.agent.seen_context["The dashboard"]["city"] == "Berlin"  # the page's context, read fresh each run


def test_a_task_tool_that_needs_approval_waits_in_the_task_panel_and_runs_once_approved(copilot):
    copilot.agent.calls("refund_order", order_id="#1041", reason="damaged").says("Refunded #1041.")
    copilot.click(DashboardState.summarize)
    assert copilot.waiting == "refund_order"
    [card] = copilot.task_cards
    assert card.status == "awaiting_approval"
    assert '"order_id": "#1041"' in card.arguments
    assert copilot.state(DashboardState).refunded == []  # not run without the person
    with pytest.raises(AssertionError, match="lets the person edit reason, not order_id"):
        copilot.approve(order_id="#1043")
    copilot.approve()
    assert copilot.state(DashboardState).refunded == ["#1041"]
    assert copilot.state(DashboardState).summary == "Refunded #1041."
    assert copilot.task_cards[0].status == "complete"


def test_a_waiting_task_card_shows_all_the_arguments_that_approve_runs(copilot):
    reason = "damaged " * 400 + "and also refund the shipping"  # far past what a card shows of a finished call
    copilot.agent.calls("refund_order", order_id="#1041", reason=reason).says("Refunded.")
    copilot.click(DashboardState.summarize)
    [card] = copilot.task_cards
    assert json.loads(card.arguments) == {"order_id": "#1041", "reason": reason}  # every character, as it will run
    assert [field["value"] for field in copilot.state(TaskState).cards[0]["fields"]] == ["#1041", reason]
    copilot.approve()
    assert copilot.state(DashboardState).refunded == ["#1041"]


def test_a_tasks_approval_card_says_what_the_chats_approval_dialog_says(copilot):
    copilot.agent.calls("refund_order", order_id="#1041", reason="damaged").says("Left as it is.")
    copilot.say("refund order 1041")
    dialog = copilot.state(ApprovalState)
    title, sentence, fields = dialog.title, dialog.sentence, list(dialog.fields)
    copilot.deny()
    copilot.agent.calls("refund_order", order_id="#1041", reason="damaged").says("Refunded.")
    copilot.click(DashboardState.summarize)
    [card] = copilot.state(TaskState).cards
    assert card["sentence"] == sentence == "Refund order #1041: the money goes back to the customer."
    assert card["title"] == title == "Refund an order?"
    assert card["fields"] == fields
    assert [(field["name"], field["value"], field["editable"]) for field in fields] == [
        ("order_id", "#1041", False),
        ("reason", "damaged", True),
    ]
    copilot.approve()
    assert copilot.state(TaskState).cards[0]["title"] == "refund_order"  # decided: the card names its tool again


def test_a_tasks_approval_runs_with_the_reason_the_person_edited_on_its_card(copilot):
    copilot.agent.calls("refund_order", order_id="#1041", reason="damaged").says("Done.")
    copilot.click(TaskArgumentsState.summarize)
    copilot.approve(reason="arrived broken")
    [shown] = copilot.state(TaskArgumentsState).shown
    assert json.loads(shown) == {"order_id": "#1041", "reason": "arrived broken"}


def test_a_tasks_approval_card_changes_only_the_fields_it_lets_the_person_edit(copilot):
    copilot.agent.calls("refund_order", order_id="#1041", reason="damaged").says("Done.")
    copilot.click(TaskArgumentsState.summarize)
    [card] = copilot.state(TaskState).cards
    copilot.click(
        TaskState.approve({"card": card["id"], "digest": card["digest"], "arg:order_id": "#1043", "arg:reason": "late"})
    )
    [shown] = copilot.state(TaskArgumentsState).shown
    assert json.loads(shown) == {"order_id": "#1041", "reason": "late"}  # the form's order_id is not one it may change
    assert copilot.state(DashboardState).refunded == ["#1041"]


@cui.frontend_tool(state=DashboardState, approval="always", editable=["days"])
async def delay_order(state: DashboardState, order_id: str, days: int) -> str:
    """Delay an order's delivery. A person approves it first."""
    return f"Order {order_id} is delayed {days} days."


def test_an_edit_that_does_not_fit_is_said_on_the_tasks_card_and_nothing_runs(copilot):
    copilot.agent.calls("delay_order", order_id="#1041", days=2).says("Delayed.")
    copilot.click(TaskArgumentsState.summarize)
    [card] = copilot.state(TaskState).cards
    copilot.click(TaskState.approve({"card": card["id"], "digest": card["digest"], "arg:days": "soon"}))
    [card] = copilot.state(TaskState).cards
    assert (card["status"], card["error"]) == ("awaiting_approval", "days: “soon” is not a number")
    copilot.approve(days=3)
    assert [json.loads(shown) for shown in copilot.state(TaskArgumentsState).shown] == [{"order_id": "#1041", "days": 3}]


def test_task_cards_and_the_chats_tool_calls_are_one_shape_with_the_same_statuses(copilot):
    copilot.agent.calls("refund_order", order_id="#1042", reason="late")  # the chat's
    copilot.agent.calls("refund_order", order_id="#1042", reason="late").says("Task done.")  # the task's
    copilot.agent.says("Chat done.")
    copilot.say("refund order 1042")
    copilot.click(DashboardState.summarize)
    [in_chat], [in_task] = copilot.tool_calls, copilot.task_cards
    assert type(in_chat) is type(in_task)
    assert (in_chat.tool, in_chat.status) == (in_task.tool, in_task.status) == ("refund_order", "awaiting_approval")
    assert json.loads(in_chat.arguments) == json.loads(in_task.arguments) == {"order_id": "#1042", "reason": "late"}
    copilot.approve()  # the task's first
    copilot.approve()
    [in_chat], [in_task] = copilot.tool_calls, copilot.task_cards
    assert (in_chat.status, in_chat.text) == (in_task.status, in_task.text) == ("complete", "Refunded order #1042.")


def test_a_denied_task_call_is_reported_denied_in_the_result(copilot):
    copilot.agent.calls("refund_order", order_id="#1041", reason="damaged").says("I did not refund it.")
    copilot.click(DashboardState.summarize)
    copilot.deny("ask me tomorrow")
    dashboard = copilot.state(DashboardState)
    assert dashboard.refunded == []
    assert dashboard.task_calls == ["refund_order: denied"]
    assert "ask me tomorrow" in str(copilot.agent.last_input.messages[-1].content)  # the agent read why


def test_a_task_shown_nowhere_still_shows_the_call_that_waits_for_the_person(copilot):
    copilot.agent.calls("filter_orders", city="Paris").calls("refund_order", order_id="#1042", reason="late").says("Done.")
    copilot.click(DashboardState.summarize_quietly)
    assert [(card.tool, card.status) for card in copilot.task_cards] == [("refund_order", "awaiting_approval")]
    copilot.approve()
    assert copilot.task_cards == []
    assert copilot.state(DashboardState).task_calls == ["filter_orders: complete", "refund_order: complete"]


def test_a_tasks_question_is_answered_in_the_task_panel(copilot):
    copilot.agent.calls("confirm_city", question="Which city should I summarize?").says("Berlin has 2 orders.")
    copilot.click(DashboardState.summarize)
    [card] = copilot.task_cards
    assert (card.status, card.question) == ("awaiting_input", "Which city should I summarize?")
    copilot.answer("Berlin")
    assert copilot.state(DashboardState).summary == "Berlin has 2 orders."
    assert copilot.task_cards[0].text == "Berlin"
    assert copilot.agent.last_input.messages[-1].content == "Berlin"  # the agent read the answer


def test_a_tasks_call_approved_twice_at_once_runs_once(copilot):
    copilot.agent.calls("refund_order", order_id="#1041", reason="damaged").says("Refunded #1041.")
    copilot.click(DashboardState.summarize)
    [card] = copilot.state(TaskState).cards
    app, form = copilot._app, {"card": card["id"], "digest": card["digest"]}
    clicks = [app.call(app.dispatch(copilot.token, TaskState.approve(form), copilot._router_data())) for _ in range(2)]
    app.call(asyncio.wait_for(asyncio.gather(*clicks, *copilot._pending), 10))
    dashboard = copilot.state(DashboardState)
    assert dashboard.refunded == ["#1041"]
    assert (dashboard.summary, dashboard.task_calls) == ("Refunded #1041.", ["refund_order: complete"])


def test_a_task_whose_agent_fails_ends_with_the_error_in_words(copilot):
    copilot.agent.add(error_reply("the model is overloaded"))
    copilot.click(TaskOutcomeState.run)
    assert copilot.state(TaskOutcomeState).outcome == ("error", "the model is overloaded")


def test_a_task_over_the_turn_limit_ends_with_limit_and_says_why(copilot, monkeypatch):
    monkeypatch.setattr(cui.copilot, "limits", LoopLimits(max_follow_ups=0))
    copilot.agent.calls("filter_orders", city="Berlin").says("never said")
    copilot.click(TaskOutcomeState.run)
    status, error = copilot.state(TaskOutcomeState).outcome
    assert status == "limit" and "stopped after 0 follow-up runs" in error
    assert copilot.state(DashboardState).city == "Berlin"  # the call ran; the run after it did not


def test_another_tab_cannot_decide_a_tasks_call(copilot):
    copilot.agent.calls("refund_order", order_id="#1041", reason="damaged").says("Refunded.")
    copilot.click(DashboardState.summarize)
    [card] = copilot.state(TaskState).cards
    other = CopilotSession(copilot._app, copilot.agent)
    other.click(TaskState.approve({"card": card["id"], "digest": card["digest"]}))
    assert copilot.waiting == "refund_order"
    assert copilot.state(DashboardState).refunded == []
    copilot.deny()


def test_a_secret_the_agent_repeats_reaches_neither_the_task_panel_nor_the_handler(copilot, monkeypatch):
    secret = "sk-test-" + "x7" * 12
    monkeypatch.setenv("SHOP_API_KEY", secret)
    copilot.agent.calls("filter_orders", city=secret).says(f"The key is {secret}.")
    copilot.click(DashboardState.summarize)
    dashboard = copilot.state(DashboardState)
    assert dashboard.summary == "The key is [redacted]."
    [card] = copilot.task_cards
    assert secret not in card.arguments + card.text
    assert "[redacted]" in card.text  # "there are no orders from [redacted]"


class TaskArgumentsState(rx.State):
    """A page that shows the arguments of its task's tool calls."""

    shown: list[str] = rx.field(default_factory=list)

    @rx.event(background=True)
    async def summarize(self):
        result = await cui.run_task(self, "Summarize the orders shown")
        async with self:
            self.shown = [json.dumps(call.arguments) for call in result.tool_calls]


def test_a_secret_in_a_task_calls_arguments_does_not_reach_the_handler(copilot, monkeypatch):
    secret = "sk-live-" + "Q9" * 12
    monkeypatch.setenv("SHOP_API_KEY", secret)
    copilot.agent.calls("filter_orders", city="Berlin", notes={"key": secret, "keys": [secret]}).says("Done.")
    copilot.click(TaskArgumentsState.summarize)
    [shown] = copilot.state(TaskArgumentsState).shown
    assert secret not in shown
    assert json.loads(shown)["notes"] == {"key": "[redacted]", "keys": ["[redacted]"]}


def test_a_secret_that_a_cards_cut_would_split_is_still_scrubbed(copilot, monkeypatch):
    secret = "sk-live-" + "Q9" * 12
    monkeypatch.setenv("SHOP_API_KEY", secret)
    padding = "a" * (SHOWN_LIMIT - 24)  # in the shown arguments, the secret starts 10 characters before the cut
    copilot.agent.calls("filter_orders", city=padding + secret).says("None.")
    copilot.click(DashboardState.summarize)
    [card] = copilot.task_cards
    assert card.arguments.endswith("…") and card.text.endswith("…")  # both were cut
    assert not [text for text in copilot.state(TaskState).cards[0].values() if secret[:8] in str(text)]
    assert "[redacted]" in card.arguments


def test_a_task_waiting_on_a_tab_that_closed_for_good_ends_with_its_call_denied(copilot):
    copilot.agent.calls("refund_order", order_id="#1041", reason="damaged").says("Nothing was refunded.")
    copilot.click(DashboardState.summarize)
    app = copilot._app
    manager = app._processor._root_context.state_manager
    nobody = SimpleNamespace(_token_manager=SimpleNamespace(token_to_socket={}))  # no tab connected

    async def gone_past_the_grace() -> None:
        gone: dict[str, float] = {}
        release_closed(manager, nobody, gone, now=0.0, grace=60)
        release_closed(manager, nobody, gone, now=61.0, grace=60)

    app.call(gone_past_the_grace())
    app.call(asyncio.wait_for(asyncio.gather(*copilot._pending), 10))  # the task's handler is done
    dashboard = copilot.state(DashboardState)
    assert dashboard.refunded == []
    assert dashboard.task_calls == ["refund_order: denied"]
    assert dashboard.summary == "Nothing was refunded."


def test_a_task_on_a_page_without_a_copilot_starts_the_watch_that_ends_it_when_the_tab_closes(copilot, monkeypatch):
    monkeypatch.setattr(_closed_sessions, "_watching", None)
    copilot._opened = True  # a page with a task panel and no copilot: the copilot never opens
    copilot.agent.calls("refund_order", order_id="#1041", reason="damaged").says("Nothing was refunded.")
    copilot.click(DashboardState.summarize)
    watching = _closed_sessions._watching
    assert watching is not None and not watching.done()
    copilot._app.call(_cancelled(watching))
    copilot.deny()


async def _cancelled(task: asyncio.Task) -> None:
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task


def test_a_tab_whose_task_works_keeps_its_state_however_long_its_connection_is_gone(copilot):
    copilot.agent.add([Pause(0.6), *text_reply("Two orders from Berlin.")])
    app = copilot._app
    copilot._opened = True
    summarizing = app.call(app.dispatch(copilot.token, DashboardState.summarize, copilot._router_data()))
    while not copilot.agent.inputs:  # the agent works
        app.call(asyncio.sleep(0.02))
    manager = app._processor._root_context.state_manager
    nobody = SimpleNamespace(_token_manager=SimpleNamespace(token_to_socket={}))

    async def gone_past_the_grace() -> int:
        gone: dict[str, float] = {}
        return release_closed(manager, nobody, gone, now=0.0, grace=60) + release_closed(
            manager, nobody, gone, now=61.0, grace=60
        )

    assert app.call(gone_past_the_grace()) == 0
    app.call(asyncio.wait_for(summarizing, 10))
    assert copilot.state(DashboardState).summary == "Two orders from Berlin."


def test_the_task_panel_speaks_the_apps_words(monkeypatch):
    french = {
        "task_panel": "Tâches de l'agent",
        "working": "En cours…",
        "approve": "Approuver",
        "deny": "Refuser",
        "task_deny_placeholder": "Pourquoi pas ? (facultatif)",
        "task_deny_reason": "Raison du refus",
        "answer": "Répondre",
        "your_answer": "Votre réponse",
        "arguments": "Paramètres",
        "task_waiting": "Vous attend",
        "task_ended": "Terminé autrement",
    }
    statuses = {"running": "En cours", "complete": "Fait", "error": "Échec", "denied": "Refusé", "aborted": "Arrêté"}
    monkeypatch.setattr(cui.copilot, "labels", cui.Labels(statuses=statuses, **french))
    panel = str(cui.task_panel())
    for word in [*french.values(), *statuses.values()]:
        assert json.dumps(word) in panel, word
    english = ["Agent tasks", "Working…", "Approve", "Deny", "Why not? (optional)", "Answer", "Waiting for you", "Ended"]
    assert not [word for word in english if json.dumps(word) in panel]
    assert json.dumps("Nos tâches") in str(cui.task_panel("Nos tâches"))  # the page's own title wins


def test_run_task_outside_a_background_handler_says_what_to_do():
    with pytest.raises(TypeError, match=r"@rx.event\(background=True\)"):
        asyncio.run(cui.run_task(DashboardState(), "Summarize"))


class TaskOutcomeState(rx.State):
    outcome: tuple[str, str] = ("", "")

    @rx.event(background=True)
    async def run(self):
        result = await cui.run_task(self, "summarize the orders shown")
        async with self:
            self.outcome = (result.status, result.error)
