"""The demo app: a small sales dashboard with its copilot docked at the right.

It shows what an app declares: frontend tools that change the person's session state (set_theme,
and refund_order, which a person approves first), a human-in-the-loop tool (ask_user), the context
the agent sees with every run (what the dashboard shows), and the sidebar. With no configuration it
runs on the built-in demo model, offline: try "switch to dark mode", "refund order 1041" or "ask me
something".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import reflex as rx

import copilot_ui as cui

_KPIS = [("Revenue", "$48,210", "+12% vs last month"), ("Orders", "1,284", "+4%"), ("Refunds", "23", "-8%")]


@dataclass
class Order:
    """A row of the orders table."""

    id: str
    customer: str
    total: str
    status: str


def _first_orders() -> list[Order]:
    return [
        Order("#1042", "Ada Lovelace", "$120.00", "Shipped"),
        Order("#1041", "Alan Turing", "$89.50", "Processing"),
        Order("#1040", "Grace Hopper", "$310.25", "Delivered"),
        Order("#1039", "Edsger Dijkstra", "$45.00", "Refunded"),
    ]


class DashboardState(rx.State):
    """What the person sees on the dashboard."""

    theme: str = "light"
    orders: list[Order] = rx.field(default_factory=_first_orders)

    @rx.event
    def toggle_theme(self) -> None:
        """The theme button."""
        self.theme = "dark" if self.theme == "light" else "light"


@cui.frontend_tool(state=DashboardState)
async def set_theme(state: DashboardState, mode: Literal["light", "dark"]) -> str:
    """Switch the dashboard between light and dark theme.

    Args:
        mode: The theme to show.
    """
    state.theme = mode
    return f"Theme is now {mode}."


@cui.frontend_tool(state=DashboardState, approval="always")
async def refund_order(state: DashboardState, order_id: str, reason: str) -> str:
    """Refund an order: the money goes back to the customer. A person approves it first.

    Args:
        order_id: The order, as the dashboard shows it (e.g. "#1041").
        reason: Why the order is refunded.
    """
    order = next((order for order in state.orders if order.id == order_id), None)
    if order is None:
        raise ValueError(f"there is no order {order_id}; the dashboard shows {', '.join(o.id for o in state.orders)}")
    if order.status == "Refunded":
        return f"Order {order_id} was already refunded."
    order.status = "Refunded"
    return f"Refunded order {order_id} ({order.total} to {order.customer})."


@cui.human_in_the_loop
def ask_user(question: str) -> None:
    """Ask the user a question; their answer is the result.

    Args:
        question: What to ask, in one sentence.
    """


@cui.context(DashboardState, description="What the user sees on the dashboard")
def dashboard_context(state: DashboardState) -> dict[str, object]:
    """The theme and the figures on screen."""
    return {
        "theme": state.theme,
        "kpis": {name: value for name, value, _ in _KPIS},
        "recent_orders": [{"id": o.id, "customer": o.customer, "total": o.total, "status": o.status} for o in state.orders],
    }


def _kpi(name: str, value: str, change: str) -> rx.Component:
    return rx.card(
        rx.text(name, size="2", color_scheme="gray"),
        rx.heading(value, size="7"),
        rx.text(change, size="1", color_scheme="green" if change.startswith("+") else "red"),
        flex="1",
    )


def _orders() -> rx.Component:
    return rx.card(
        rx.heading("Recent orders", size="4", margin_bottom="0.75rem"),
        rx.table.root(
            rx.table.header(rx.table.row(*(rx.table.column_header_cell(h) for h in ("Order", "Customer", "Total", "Status")))),
            rx.table.body(rx.foreach(DashboardState.orders, _order_row)),
            width="100%",
        ),
    )


def _order_row(order: Order) -> rx.Component:
    return rx.table.row(
        rx.table.cell(order.id),
        rx.table.cell(order.customer),
        rx.table.cell(order.total),
        rx.table.cell(order.status, data_status=order.status),
        data_order=order.id,
        key=order.id,
    )


def dashboard() -> rx.Component:
    """The page's own content, left of the copilot."""
    return rx.el.main(
        rx.hstack(
            rx.heading("Acme sales", size="6"),
            rx.spacer(),
            rx.text("Theme: ", rx.text.strong(DashboardState.theme), size="2", id="theme-label"),
            rx.button(
                rx.cond(DashboardState.theme == "light", rx.icon("moon", size=16), rx.icon("sun", size=16)),
                "Toggle theme",
                on_click=DashboardState.toggle_theme,
                variant="soft",
            ),
            align="center",
            width="100%",
        ),
        rx.hstack(*(_kpi(*kpi) for kpi in _KPIS), spacing="4", width="100%"),
        _orders(),
        style={"flex": "1", "padding": "1.5rem 2rem", "display": "flex", "flexDirection": "column", "gap": "1.5rem"},
    )


def index() -> rx.Component:
    """The dashboard with the copilot docked at the right."""
    return rx.el.div(
        cui.color_mode_from(DashboardState.theme),
        dashboard(),
        cui.sidebar(agent="default"),
        style={"display": "flex", "minHeight": "100vh"},
    )


app = rx.App()
app.add_page(index, title="Acme sales · copilot_ui demo")
