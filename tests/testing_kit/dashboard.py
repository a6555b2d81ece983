"""The app of the testing guide (docs/guides/testing.md): a small orders dashboard with its copilot.

Its tools change the page (filter_orders), need approval (refund_order), ask the person (confirm_city) or run in the
browser (copy_to_clipboard); its buttons ask the copilot (explain_revenue) or run an agent task (summarize). Its
built-in agent keeps notes in the state it shares with the page (save_note) and asks a CRM (an MCP server).
"""

from __future__ import annotations

import reflex as rx
from pydantic import BaseModel
from pydantic_ai import RunContext
from pydantic_ai.ui import StateDeps

import copilot_ui as cui
from copilot_ui.server import emit_state_delta

ORDERS = {"#1041": "Berlin", "#1042": "Paris", "#1043": "Berlin"}


class DashboardState(rx.State):
    city: str = ""
    refunded: list[str] = rx.field(default_factory=list)
    summary: str = ""
    task_calls: list[str] = rx.field(default_factory=list)  # how each call of the last task ended

    @rx.event
    def pick(self, city: str):
        """The city filter's buttons."""
        self.city = city

    @rx.event
    def explain_revenue(self):
        """The "Explain the revenue" button."""
        return cui.send_message("Explain the revenue chart")

    @rx.event(background=True)
    async def summarize(self):
        """The "Summarize orders" button: an agent task, its result shown on the page."""
        result = await cui.run_task(self, "Summarize the orders shown")
        async with self:
            self.summary = result.text
            self.task_calls = [f"{call.name}: {call.status}" for call in result.tool_calls]

    @rx.event(background=True)
    async def summarize_quietly(self):
        """The same task, its tool cards shown nowhere (a call that waits for the person still shows)."""
        result = await cui.run_task(self, "Summarize the orders shown", show="none")
        async with self:
            self.summary = result.text
            self.task_calls = [f"{call.name}: {call.status}" for call in result.tool_calls]


@cui.frontend_tool(state=DashboardState)
async def filter_orders(state: DashboardState, city: str) -> str:
    """Show only the orders from a city."""
    if city not in ORDERS.values():
        raise ValueError(f"there are no orders from {city}")
    state.city = city
    return f"Showing the orders from {city}."


@cui.frontend_tool(
    state=DashboardState,
    approval="always",
    describe=lambda a: f"Refund order {a.order_id}: the money goes back to the customer.",
    editable=["reason"],
)
async def refund_order(state: DashboardState, order_id: str, reason: str) -> str:
    """Refund an order. A person approves it first."""
    state.refunded = [*state.refunded, order_id]
    return f"Refunded order {order_id}."


@cui.human_in_the_loop
def confirm_city(question: str) -> None:
    """Ask the person which city they mean."""


@cui.browser_tool(script="async ({text}) => { await navigator.clipboard.writeText(text); return 'Copied.'; }")
def copy_to_clipboard(text: str) -> None:
    """Copy a text to the person's clipboard."""


@cui.context(DashboardState, description="The dashboard")
def dashboard_context(state: DashboardState) -> dict:
    return {"city": state.city, "orders": ORDERS}


class NotesState(rx.State):  # the page's side of the state it shares with the agent
    note: str = ""

    @rx.event
    def set_note(self, text: str):
        self.note = text


class Notes(BaseModel):  # the agent's side
    note: str = ""


async def save_note(ctx: RunContext[StateDeps[Notes]], text: str) -> str:
    """Add a line to the notes."""
    ctx.deps.state.note = f"{ctx.deps.state.note}\n{text}".strip()
    await emit_state_delta(ctx, [{"op": "add", "path": "/note", "value": ctx.deps.state.note}])
    return "Saved."


cui.agent_state(NotesState)
cui.copilot.agents.register(
    cui.builtin_agent(tools=[save_note], state_type=Notes, toolsets=[cui.mcp_server("crm", url="https://crm.example.com/mcp")])
)
