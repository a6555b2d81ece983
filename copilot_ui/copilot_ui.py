"""The demo app: a small sales dashboard with its copilot docked at the right.

It shows what an app declares, one capability each:
- frontend tools that change the person's session (set_theme, filter_orders, orders_with_status,
  city_sales, lookup_rate, which reports progress) and two that need approval first (refund_order,
  cancel_order: a dialog says what will happen, and the reason may be changed); the orders live in
  the app's database (`demo/orders.py`), so a refund survives a restart;
- a tool drawn as a card of its own (show_order), a question answered in a checklist card
  (confirm_plan, its answer typed) and a plain question (ask_user), cards in `demo/cards.py`;
- a tool that runs in the browser (copy_to_clipboard);
- the context the agent sees with every run (what the dashboard shows);
- the agent's shared state: the "Report draft" panel, which the agent writes and the person edits;
- the app's own buttons driving the copilot: one asks it about the revenue (`cui.send_message`), one
  runs an agent task without the chat and shows its result on the page (`cui.run_task`, its tool
  cards in `cui.task_panel()`).

This module is what the app declares to the copilot, and its pages; the dashboard's states are in
`demo/dashboard.py`, its page's parts in `demo/page.py`. With no configuration it runs on the built-in demo
model, offline, following the dashboard's script (`demo/script.py`: README.md's phrases); ask it "what can you
do?".
"""

from __future__ import annotations

import asyncio
import importlib
import os
from typing import Any, Literal

import reflex as rx

import copilot_ui as cui
from copilot_ui.demo import orders as orders_db
from copilot_ui.demo.cards import order_card, plan_card
from copilot_ui.demo.dashboard import (
    ORDERS_CHANGE,
    ORDERS_TOTAL,
    RATES,
    REFUNDS_CHANGE,
    REVENUE,
    REVENUE_CHANGE,
    SALES_BY_CITY,
    STATUSES,
    DashboardState,
    ReportState,
    change_order,
)
from copilot_ui.demo.page import index, with_chat, with_popup
from copilot_ui.demo.report import AgentReport, demo_backend_tools
from copilot_ui.demo.script import DASHBOARD
from copilot_ui.server import agent_from_environment

cui.agent_state(ReportState)
# The built-in agent writes the report through its own backend tool (an AG-UI server behind
# COPILOT_AGENT_URL brings its own tools instead); offline, the demo model follows the dashboard's script.
cui.copilot.agents.register(
    agent_from_environment("default", tools=demo_backend_tools(), state_type=AgentReport, demo_script=DASHBOARD)
)


# Tools that change the dashboard


@cui.frontend_tool(state=DashboardState)
async def set_theme(state: DashboardState, mode: Literal["light", "dark"]) -> str:
    """Switch the dashboard between light and dark theme.

    Args:
        mode: The theme to show.
    """
    state.theme = mode
    return f"Theme is now {mode}."


@cui.frontend_tool(state=DashboardState)
async def filter_orders(state: DashboardState, city: str) -> str:
    """Show only the orders from a city in the Orders table ("" shows all).

    Args:
        city: The city, as the table shows it (e.g. "Berlin"), or "" for all.
    """
    cities = sorted({order.city for order in state.orders})
    if city and city not in cities:
        raise ValueError(f"there are no orders from {city}; the cities are {', '.join(cities)}")
    state.city = city
    shown = [order for order in state.orders if not city or order.city == city]
    return f"Showing {len(shown)} orders from {city}." if city else f"Showing all {len(shown)} orders."


@cui.frontend_tool(state=DashboardState, render=order_card)
async def show_order(state: DashboardState, order_id: str) -> dict[str, Any]:
    """Show one order as a card in the conversation.

    Args:
        order_id: The order, as the dashboard shows it (e.g. "#1042").
    """
    order = next((order for order in state.orders if order.id == order_id), None)
    if order is None:
        raise ValueError(f"there is no order {order_id}; the dashboard shows {', '.join(o.id for o in state.orders)}")
    return {"id": order.id, "customer": order.customer, "city": order.city, "total": order.total, "status": order.status}


@cui.frontend_tool(
    state=DashboardState,
    approval="always",
    title="Refund an order",
    describe=lambda a: f"Refund order {a.order_id}: the money goes back to the customer.",
    editable=["reason"],
)
async def refund_order(state: DashboardState, order_id: str, reason: str) -> str:
    """Refund an order: the money goes back to the customer. A person approves it first.

    Args:
        order_id: The order, as the dashboard shows it (e.g. "#1041").
        reason: Why the order is refunded.
    """
    order = next((order for order in state.orders if order.id == order_id), None)
    if order is not None and order.status == "Refunded":
        return f"Order {order_id} was already refunded."
    order = await change_order(state, order_id, "Refunded", ("Processing", "Shipped", "Delivered"))
    return f"Refunded order {order_id} ({order.total} to {order.customer})."


@cui.frontend_tool(
    state=DashboardState,
    approval="always",
    title="Cancel an order",
    describe=lambda a: f"Cancel order {a.order_id}: it will not be shipped.",
    editable=["reason"],
)
async def cancel_order(state: DashboardState, order_id: str, reason: str) -> str:
    """Cancel an order that has not shipped yet. A person approves it first.

    Args:
        order_id: The order, as the dashboard shows it (e.g. "#1041").
        reason: Why the order is cancelled.
    """
    order = await change_order(state, order_id, "Cancelled", ("Processing",))
    return f"Cancelled order {order_id} ({order.customer}, {order.total})."


@cui.frontend_tool(state=DashboardState)
async def orders_with_status(state: DashboardState, status: Literal[STATUSES]) -> list[dict[str, str]]:  # type: ignore[valid-type]
    """Show only the orders with one status in the Orders table, and list them.

    Args:
        status: The status, as the table shows it.
    """
    state.status, state.city = status, ""
    return [{"id": o.id, "customer": o.customer, "city": o.city, "total": o.total} for o in state.orders if o.status == status]


@cui.frontend_tool(state=DashboardState)
async def city_sales(state: DashboardState, city: str) -> str:
    """The sales of one city this month.

    Args:
        city: The city (e.g. "Paris").
    """
    if city not in SALES_BY_CITY:
        raise ValueError(f"no sales figures for {city}; the cities are {', '.join(SALES_BY_CITY)}")
    count = sum(1 for order in state.orders if order.city == city)
    return f"{city}: {SALES_BY_CITY[city]} from {count} orders"


@cui.frontend_tool
async def lookup_rate(currency: str, context: cui.ToolContext) -> str:
    """Look up the exchange rate of a currency to US dollars (it takes a moment, and says how far it is).

    Args:
        currency: The currency code, e.g. "EUR".
    """
    code = currency.strip().upper()
    for fraction, step in ((0.2, "Asking the rates service"), (0.6, f"Reading the {code} rate"), (0.9, "Checking the date")):
        context.progress(fraction, step)
        await asyncio.sleep(0.6)
    if code not in RATES:
        raise ValueError(f"no rate for {code}; known currencies: {', '.join(RATES)}")
    return f"1 {code} = {RATES[code]} USD"


COPY_SCRIPT = """async ({text}) => {
  await navigator.clipboard.writeText(text);
  return `Copied ${text.length} characters to the clipboard.`;
}"""


@cui.browser_tool(script=COPY_SCRIPT)
def copy_to_clipboard(text: str) -> None:
    """Copy a text to the person's clipboard (runs in their browser).

    Args:
        text: What to copy.
    """


# Questions for the person


@cui.human_in_the_loop(render=plan_card)
def confirm_plan(steps: list[str], answer: dict[str, bool]) -> list[str]:
    """Propose the steps of a plan; the person chooses which to keep.

    Args:
        steps: The steps, in order.
    """
    return [step for index, step in enumerate(steps) if answer.get(str(index))]


@cui.human_in_the_loop
def ask_user(question: str) -> None:
    """Ask the user a question; their answer is the result.

    Args:
        question: What to ask, in one sentence.
    """


# What the agent sees


@cui.context(DashboardState, description="What the user sees on the dashboard")
def dashboard_context(state: DashboardState) -> dict[str, object]:
    """The theme, the figures on screen and the orders."""
    return {
        "theme": state.theme,
        "kpis": {"Revenue": REVENUE, "Orders": ORDERS_TOTAL, "Refunds": str(orders_db.refunds(state.orders))},
        "kpi_changes": {"Revenue": REVENUE_CHANGE, "Orders": ORDERS_CHANGE, "Refunds": REFUNDS_CHANGE},
        "orders_filter": {"city": state.city, "status": state.status},
        "orders": [
            {"id": o.id, "customer": o.customer, "city": o.city, "total": o.total, "status": o.status} for o in state.orders
        ],
        "sales_by_city": SALES_BY_CITY,
    }


# Modules named in COPILOT_EXTRA_MODULES (comma-separated) add tools of their own, e.g. a developer's
# experiments or the browser tests' slow tools; they may import this module's states.
for extra in filter(None, (name.strip() for name in os.environ.get("COPILOT_EXTRA_MODULES", "").split(","))):
    importlib.import_module(extra)

# The connection's state shows in the copilot's header; Reflex's own toasts go to the top, off the message box.
# The built-in agent is served over AG-UI at /copilot/agui once COPILOT_AGENT_ENDPOINT_TOKEN is set (README).
app = rx.App(
    api_transformer=[cui.content_security_policy(), cui.agent_endpoint(), cui.attachment_endpoint()],
    toaster=rx.toast.provider(position="top-center"),
)
app.add_page(index, title="Acme sales · copilot_ui demo", on_load=DashboardState.load)
app.add_page(with_popup, route="/popup", title="Acme sales · the copilot in a popup", on_load=DashboardState.load)
app.add_page(with_chat, route="/chat", title="Acme sales · the copilot inline", on_load=DashboardState.load)
