"""A helpdesk with a copilot, written from copilot_ui's README alone (the app-developer ring serves and drives it).

Two agents, each sharing a state of its own with the page: the default one (the ticket) and "notes".
Frontend tools change the ticket, a card draws a customer from a tool's JSON result, and a question lets
the person keep some of the proposed steps (its answer typed).
"""

from typing import Literal

import reflex as rx
from pydantic import BaseModel
from pydantic_ai import RunContext
from pydantic_ai.ui import StateDeps

import copilot_ui as cui
from copilot_ui.server import emit_state_delta

CUSTOMERS = {"ada@example.com": {"name": "Ada Lovelace", "plan": "Pro", "since": "2021"}}


class AuthState(rx.State):
    user: str = ""

    @rx.event
    def log_in(self) -> None:
        self.user = "ada"

    @rx.event
    def log_out(self) -> None:
        self.user = ""


async def signed_in_user(state: rx.State) -> str:
    return (await state.get_state(AuthState)).user


cui.copilot.owner = signed_in_user  # a person who logs in sees their conversations on every device


class TicketState(rx.State):
    priority: str = "normal"
    status: str = "open"


class NotesState(rx.State):
    note: str = ""

    @rx.event
    def set_note(self, text: str) -> None:
        self.note = text


# The page's own tools


@cui.frontend_tool(state=TicketState)
def set_priority(state: TicketState, level: Literal["low", "normal", "high"]) -> str:
    """Set the ticket's priority."""
    state.priority = level
    return f"The ticket's priority is now {level}."


def customer_card(call: cui.ToolCallView) -> rx.Component:
    customer = call.result_json
    return rx.card(
        rx.text("Customer ", call.argument("email", "")),
        rx.cond(
            call.status == "complete",
            rx.text(customer["name"].to(str), ", ", customer["plan"].to(str), " plan since ", customer["since"].to(str)),
            rx.cond(call.status == "error", rx.text("No such customer."), rx.text("Looking…")),
        ),
        role="region",
        aria_label="Customer",
    )


@cui.frontend_tool(render=customer_card)
def lookup_customer(email: str) -> dict:
    """Look up a customer by their email."""
    if email not in CUSTOMERS:
        raise ValueError(f"no customer {email}")
    return CUSTOMERS[email]


# A question: the person keeps some of the proposed steps


class Step(BaseModel):
    description: str


def steps_card(call: cui.ToolCallView) -> rx.Component:
    steps = call.argument("steps", [], list[dict])
    return rx.box(
        rx.cond(
            call.status == "awaiting_input",
            call.form(
                rx.foreach(
                    steps,
                    lambda step, i: rx.el.label(
                        rx.el.input(type="checkbox", name=i.to(str), default_checked=True), step["description"].to(str)
                    ),
                ),
                rx.button("Confirm", type="submit"),
            ),
            rx.foreach(call.result_json.to(list[str]), rx.text),
        ),
        role="region",
        aria_label="Steps",
    )


@cui.human_in_the_loop(render=steps_card)
def choose_steps(steps: list[Step], answer: dict[str, bool]) -> list[str]:
    """Propose steps; the person keeps some."""
    return [step.description for i, step in enumerate(steps) if answer.get(str(i))]


# Two agents, each with the state it shares with the page


class Ticket(BaseModel):
    priority: str = "normal"
    status: str = "open"


async def set_status(ctx: RunContext[StateDeps[Ticket]], status: str) -> str:
    """Set the ticket's status."""
    ctx.deps.state.status = status
    await emit_state_delta(ctx, [{"op": "add", "path": "/status", "value": status}])
    return f"The ticket is {status} (its priority: {ctx.deps.state.priority})."


class Notes(BaseModel):
    note: str = ""


async def save_note(ctx: RunContext[StateDeps[Notes]], text: str) -> str:
    """Add a line to the notes."""
    ctx.deps.state.note = f"{ctx.deps.state.note}\n{text}".strip()
    await emit_state_delta(ctx, [{"op": "add", "path": "/note", "value": ctx.deps.state.note}])
    return "Saved."


cui.copilot.agents.register(cui.builtin_agent(tools=[set_status], state_type=Ticket))
cui.copilot.agents.register(cui.builtin_agent(agent_id="notes", tools=[save_note], state_type=Notes))
cui.agent_state(TicketState, agent="default")
cui.agent_state(NotesState, agent="notes")


def index() -> rx.Component:
    return cui.sidebar(
        rx.vstack(
            rx.heading("Ticket #7"),
            rx.cond(
                AuthState.user != "",
                rx.button("Log out ", AuthState.user, on_click=AuthState.log_out),
                rx.button("Log in", on_click=AuthState.log_in),
            ),
            rx.text("Priority: ", TicketState.priority, id="priority"),
            rx.text("Status: ", TicketState.status, id="status"),
            rx.text_area(value=NotesState.note, on_change=NotesState.set_note, aria_label="Notes", id="notes"),
            padding="2rem",
        )
    )


app = rx.App()
app.add_page(index)
