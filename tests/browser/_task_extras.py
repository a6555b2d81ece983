"""A page the app-buttons tests add to the demo app (COPILOT_EXTRA_MODULES): an agent task whose tool needs approval.

The demo model calls a tool whose name starts the message, so the task's prompt names refund_order; the
refund needs the person's approval, which the task panel asks for.
"""

from __future__ import annotations

import reflex as rx

import copilot_ui as cui
from copilot_ui.copilot_ui import DashboardState

REFUND_TASK = 'refund_order {"order_id": "#1042", "reason": "damaged in transit"}'


class RefundTaskState(rx.State):
    """What the refund task ended with, as the page shows it."""

    outcome: str = ""

    @rx.event(background=True)
    async def refund_as_task(self) -> None:
        async with self:
            self.outcome = "Working…"
        result = await cui.run_task(self, REFUND_TASK)
        calls = ", ".join(f"{call.name}: {call.status}, reason {call.arguments.get('reason')!r}" for call in result.tool_calls)
        async with self:
            self.outcome = f"{result.text} ({calls})"


def _status_of_1042(order: rx.Var) -> rx.Component:
    return rx.cond(order.id == "#1042", rx.text("Order #1042 is ", rx.el.strong(order.status, id="status-1042")))


@rx.page(route="/tasks", title="Refund tasks · copilot_ui", on_load=DashboardState.load)
def refund_tasks() -> rx.Component:
    return rx.el.main(
        rx.heading("Refund tasks", size="6", as_="h1"),
        rx.foreach(DashboardState.orders, _status_of_1042),
        rx.button("Refund order 1042 as a task", on_click=RefundTaskState.refund_as_task),
        rx.text(RefundTaskState.outcome, id="task-outcome", role="status"),
        cui.task_panel(),
        style={"padding": "2rem", "display": "flex", "flex_direction": "column", "gap": "1rem", "max_width": "40rem"},
    )
