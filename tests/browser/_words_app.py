"""A trip planner added to the demo app (COPILOT_EXTRA_MODULES) for the tests of the copilot's words and header:
every label of the app wrapped in ⟦…⟧ (a pseudo-locale: any text the person sees without the marks is not a label),
and a scripted agent whose model has a long name, on pages with each layout.

The agent ("trips") does what the person's message says: "reply", "card", "cancel" (a call that needs approval),
"ask" (a question), "fail" (an error with Retry), "slow" (a reply after a pause), "long" (a reply too long to show
whole). The page /words runs it as an agent
task too, whose call waits for approval in the task panel.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import AsyncIterator
from typing import Any

import reflex as rx
from ag_ui.core import BaseEvent, RunAgentInput, RunErrorEvent, ToolMessage

import copilot_ui as cui
from copilot_ui.agents import Agent
from copilot_ui.agents.scripts import run, text, tool_calls_reply

from ._words_said import FAILURE, FOLLOW_UP, LONG_MODEL, LONG_REPLY, LONG_TITLE, QUESTION, REPLY, TASK_PROMPT


def pseudo(labels: cui.Labels) -> cui.Labels:
    """Every word of these labels wrapped in ⟦…⟧ (templates keep their fields inside the marks)."""
    wrapped: dict[str, Any] = {}
    for entry in dataclasses.fields(labels):
        value = getattr(labels, entry.name)
        if isinstance(value, str):
            wrapped[entry.name] = f"⟦{value}⟧"
        elif isinstance(value, tuple):
            wrapped[entry.name] = tuple(f"⟦{word}⟧" for word in value)
        elif isinstance(value, dict):
            wrapped[entry.name] = {key: f"⟦{word}⟧" for key, word in value.items()}
    return cui.Labels(**wrapped)


cui.copilot.labels = pseudo(cui.Labels())


class TripAgent(Agent):
    """The trip planner's agent: a script chosen by the person's last message."""

    model_name = LONG_MODEL  # what the copilot's header names

    async def _events(self, run_input: RunAgentInput) -> AsyncIterator[BaseEvent]:
        for event in _script(run_input):
            if isinstance(event, float):
                await asyncio.sleep(event)
            else:
                yield event


def _script(run_input: RunAgentInput) -> list[Any]:
    ids = {"thread_id": run_input.thread_id, "run_id": run_input.run_id}
    last = run_input.messages[-1] if run_input.messages else None
    if isinstance(last, ToolMessage):
        return run(text(FOLLOW_UP), **ids)
    asked = _words(last.content if last is not None else "").strip().lower()
    if asked == "card":
        return _named(tool_calls_reply(("plan_trip", {"destination": "Kyoto", "nights": 4})), ids)
    if asked == "cancel":
        return _named(tool_calls_reply(("cancel_trip", {"trip_id": "t4"})), ids)
    if asked == "ask":
        return _named(tool_calls_reply(("ask_nights", {"question": QUESTION})), ids)
    started, *rest = run(text(LONG_REPLY if asked == "long" else REPLY), **ids)
    if asked == "fail":
        return [started, RunErrorEvent(message=FAILURE)]
    if asked == "slow":
        return [started, 4.0, *rest]
    return [started, *rest]


def _named(events: list[BaseEvent], ids: dict[str, str]) -> list[BaseEvent]:
    """A scripted run under this run's thread and run ids."""
    return [event.model_copy(update={key: value for key, value in ids.items() if hasattr(event, key)}) for event in events]


def _words(content: Any) -> str:
    if isinstance(content, str):
        return content
    return " ".join(str(getattr(part, "text", "")) for part in content or [])


cui.copilot.agents.register(TripAgent(agent_id="trips", description="Trip planner"))


@cui.frontend_tool
async def plan_trip(destination: str, nights: int = 3) -> str:
    """Plan a trip.

    Args:
        destination: Where to.
        nights: How many nights.
    """
    return f"Planned {nights} nights in {destination}."


@cui.frontend_tool(approval="always")
async def cancel_trip(trip_id: str) -> str:
    """Cancel a planned trip for good.

    Args:
        trip_id: The trip.
    """
    return f"Cancelled {trip_id}."


@cui.human_in_the_loop
def ask_nights(question: str) -> None:
    """Ask the person how many nights.

    Args:
        question: What to ask.
    """


class TripTaskState(rx.State):
    """The agent task of the page /words."""

    @rx.event(background=True)
    async def cancel_in_background(self) -> None:
        await cui.run_task(self, TASK_PROMPT, agent="trips")


def _trips_page() -> rx.Component:
    return rx.el.main(
        rx.heading("Trips", size="6", as_="h1"),
        rx.button("Cancel in the background", on_click=TripTaskState.cancel_in_background, id="run-task"),
        cui.task_panel(),
        style={"padding": "1rem", "display": "flex", "flex_direction": "column", "gap": "1rem"},
    )


@rx.page(route="/words", title="Trips · words")
def words_page() -> rx.Component:
    """The trip planner in the pseudo-locale, with the app's own title (a label too)."""
    return cui.sidebar(_trips_page(), agent="trips", suggestions=["Plan Kyoto"])


@rx.page(route="/header-sidebar", title="Trips · sidebar")
def header_sidebar() -> rx.Component:
    return cui.sidebar(rx.heading("Trips", size="6", as_="h1"), agent="trips", title=LONG_TITLE)


@rx.page(route="/header-popup", title="Trips · popup")
def header_popup() -> rx.Component:
    return rx.el.main(rx.heading("Trips", size="6", as_="h1"), cui.popup(agent="trips", title=LONG_TITLE))


@rx.page(route="/header-chat", title="Trips · chat")
def header_chat() -> rx.Component:
    return rx.el.main(
        rx.el.div(cui.chat(agent="trips", title=LONG_TITLE), id="chat-box", style={"width": "420px", "height": "560px"}),
        style={"padding": "1rem"},
    )
