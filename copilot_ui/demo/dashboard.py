"""The demo dashboard's states: what the person sees (its orders, kept in the app's database by `orders.py`) and the
report draft the agent writes as its shared state."""

from __future__ import annotations

import asyncio

import reflex as rx

import copilot_ui as cui
from copilot_ui.demo import orders as orders_db
from copilot_ui.demo.orders import Order

REVENUE, REVENUE_CHANGE = "$48,210", "+12% vs last month"
ORDERS_TOTAL, ORDERS_CHANGE = "1,284", "+4%"
REFUNDS_CHANGE = "-8%"
SALES_BY_CITY = {"Berlin": "$18,420", "Paris": "$15,310", "London": "$14,480"}
RATES = {"EUR": "1.08", "GBP": "1.27", "JPY": "0.0067", "CHF": "1.13"}
STATUSES = ("Processing", "Shipped", "Delivered", "Refunded", "Cancelled")
WORKSPACE_DAYS = 400


class DashboardState(rx.State):
    """What the person sees on the dashboard; its orders live in the app's database (`demo/orders.py`)."""

    theme: rx.Field[str] = rx.field("light")
    orders: rx.Field[list[Order]] = rx.field(default_factory=list)
    city: str = ""  # the Orders table shows this city only ("" shows all)
    status: str = ""  # and this status only ("" shows all)
    workspace: str = rx.Cookie("", name="demo_workspace", max_age=WORKSPACE_DAYS * 86400, same_site="lax")
    summary: str = ""  # the "Summarize orders" task's result

    @rx.var
    def shown_orders(self) -> list[Order]:
        """The orders the table shows."""
        return [order for order in self.orders if self.city in ("", order.city) and self.status in ("", order.status)]

    @rx.var
    def refunds(self) -> int:
        """This month's refunds."""
        return orders_db.refunds(self.orders)

    @rx.event
    async def load(self) -> None:
        """The page opened: this browser's orders, as the database has them (read in a worker thread: a query
        must not hold up every other person's events); a new browser's are the first seven."""
        if not self.workspace:
            self.workspace = orders_db.new_workspace()
            self.orders = orders_db.first_orders()
            return
        self.orders = await asyncio.to_thread(orders_db.orders_of, self.workspace)

    @rx.event
    def toggle_theme(self) -> None:
        """The theme button."""
        self.theme = "dark" if self.theme == "light" else "light"

    @rx.event
    def show_all_orders(self) -> None:
        """The filter's "Show all" button."""
        self.city = self.status = ""

    @rx.event(background=True)
    async def summarize_orders(self) -> None:
        """The "Summarize orders" button: an agent task with the page's tools, outside the chat; its result shows here."""
        async with self:
            self.summary = "Summarizing…"
        result = await cui.run_task(self, "which orders are still processing?")
        async with self:
            self.summary = result.text or result.error or "The agent had nothing to say."


async def change_order(state: DashboardState, order_id: str, status: str, allowed: tuple[str, ...]) -> Order:
    """Set an order's status in the database and on the page; ValueError in words when it cannot be."""
    order = next((order for order in state.orders if order.id == order_id), None)
    if order is None:
        raise ValueError(f"there is no order {order_id}; the dashboard shows {', '.join(o.id for o in state.orders)}")
    if order.status not in allowed:
        raise ValueError(f"order {order_id} is {order.status.lower()}, so it cannot be {status.lower()}")
    await asyncio.to_thread(orders_db.set_status, state.workspace, order_id, status)
    state.orders = await asyncio.to_thread(orders_db.orders_of, state.workspace)
    return order


class ReportState(rx.State):
    """The report draft the agent writes (its shared state) and the person edits."""

    report: str = ""

    @rx.event
    def set_report(self, text: str) -> None:
        """The person edited the draft."""
        self.report = text
