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

With no configuration it runs on the built-in demo model, offline, following the dashboard's script
(`demo/script.py`: README.md's phrases); ask it "what can you do?".
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
from copilot_ui.demo.orders import Order
from copilot_ui.demo.report import AgentReport, demo_backend_tools
from copilot_ui.demo.script import DASHBOARD
from copilot_ui.server import agent_from_environment

REVENUE, REVENUE_CHANGE = "$48,210", "+12% vs last month"
ORDERS_TOTAL, ORDERS_CHANGE = "1,284", "+4%"
REFUNDS_CHANGE = "-8%"
SALES_BY_CITY = {"Berlin": "$18,420", "Paris": "$15,310", "London": "$14,480"}
RATES = {"EUR": "1.08", "GBP": "1.27", "JPY": "0.0067", "CHF": "1.13"}
STATUSES = ("Processing", "Shipped", "Delivered", "Refunded", "Cancelled")
WORKSPACE_DAYS = 400


class DashboardState(rx.State):
    """What the person sees on the dashboard; its orders live in the app's database (`demo/orders.py`)."""

    theme: str = "light"
    orders: list[Order] = rx.field(default_factory=list)
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
        must not hold up every other person's events)."""
        if not self.workspace:
            self.workspace = orders_db.new_workspace()
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


async def _change_order(state: DashboardState, order_id: str, status: str, allowed: tuple[str, ...]) -> Order:
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
    order = await _change_order(state, order_id, "Refunded", ("Processing", "Shipped", "Delivered"))
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
    order = await _change_order(state, order_id, "Cancelled", ("Processing",))
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


# The page


def _kpi(name: str, value: Any, change: str) -> rx.Component:
    return rx.card(
        rx.text(name, size="2", color_scheme="gray"),
        rx.text(value, size="7", weight="bold", class_name="demo-kpi-value", data_kpi=name),
        rx.text(change, size="1", color_scheme="green" if change.startswith("+") else "red"),
        class_name="demo-kpi",
    )


def _orders() -> rx.Component:
    return rx.card(
        rx.hstack(
            rx.heading("Orders", size="4", as_="h2", id="orders-heading"),
            rx.spacer(),
            rx.cond(
                (DashboardState.city != "") | (DashboardState.status != ""),
                rx.hstack(
                    rx.cond(
                        DashboardState.city != "", rx.badge("From ", DashboardState.city, variant="soft", high_contrast=True)
                    ),
                    rx.cond(DashboardState.status != "", rx.badge(DashboardState.status, variant="soft", high_contrast=True)),
                    rx.button("Show all", size="1", variant="ghost", on_click=DashboardState.show_all_orders),
                    align="center",
                ),
            ),
            align="center",
            margin_bottom="0.75rem",
        ),
        rx.box(
            rx.table.root(
                rx.el.caption("Orders", class_name="cui-sr-only"),  # the table's accessible name
                rx.table.header(
                    rx.table.row(*(rx.table.column_header_cell(h) for h in ("Order", "Customer", "City", "Total", "Status")))
                ),
                rx.table.body(rx.foreach(DashboardState.shown_orders, _order_row)),
                width="100%",
            ),
            overflow_x="auto",
        ),
    )


def _order_row(order: Order) -> rx.Component:
    return rx.table.row(
        rx.table.cell(order.id),
        rx.table.cell(order.customer),
        rx.table.cell(order.city),
        rx.table.cell(order.total),
        rx.table.cell(order.status, data_status=order.status),
        data_order=order.id,
        key=order.id,
    )


def _copilot_buttons() -> rx.Component:
    """The app's own buttons that drive the copilot, and what the task left on the page."""
    ask = rx.button(
        rx.icon("message-circle", size=16),
        "Explain the revenue",
        variant="soft",
        on_click=cui.send_message("What is our revenue this month?"),
    )
    summarize = rx.button(
        rx.icon("list-checks", size=16), "Summarize orders", variant="soft", on_click=DashboardState.summarize_orders
    )
    return rx.card(
        rx.vstack(
            rx.hstack(ask, summarize, wrap="wrap"),
            rx.text(DashboardState.summary, id="orders-summary", size="2", aria_live="polite"),
            cui.task_panel(),
            spacing="3",
            align="stretch",
        ),
        role="region",
        aria_label="Ask the copilot",
    )


def _report() -> rx.Component:
    return rx.card(
        rx.heading("Report draft", size="4", as_="h2", id="report-heading", margin_bottom="0.5rem"),
        rx.text("The copilot writes here when you ask for a report; you can edit it.", size="1", color_scheme="gray"),
        rx.text_area(
            value=ReportState.report,
            on_change=ReportState.set_report.debounce(300),
            placeholder="Ask the copilot to draft a weekly report.",
            rows="8",
            aria_labelledby="report-heading",
            margin_top="0.5rem",
        ),
        role="region",
        aria_labelledby="report-heading",
    )


def dashboard() -> rx.Component:
    """The page's own content, left of the copilot."""
    return rx.el.main(
        rx.hstack(
            rx.heading("Acme sales", size="6", as_="h1"),
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
            wrap="wrap",
        ),
        rx.el.div(
            _kpi("Revenue", REVENUE, REVENUE_CHANGE),
            _kpi("Orders", ORDERS_TOTAL, ORDERS_CHANGE),
            _kpi("Refunds", DashboardState.refunds, REFUNDS_CHANGE),
            class_name="demo-kpis",
        ),
        _copilot_buttons(),
        _orders(),
        _report(),
        class_name="demo-main",
    )


DEMO_CSS = """
.demo-main { flex: 1; min-width: 0; padding: 1.5rem 2rem; display: flex; flex-direction: column; gap: 1.5rem; }
.demo-kpis { display: grid; grid-template-columns: repeat(auto-fit, minmax(9rem, 1fr)); gap: 1rem; }
.demo-kpi-value { white-space: nowrap; }
.demo-chat-box { height: 75vh; }
.demo-steps { border: none; padding: 0; margin: 0.25rem 0 0.5rem; display: flex; flex-direction: column; gap: 0.3rem; }
.demo-step { display: flex; gap: 0.4rem; align-items: center; font-size: 0.85rem; }
.demo-plan { margin: 0.3rem 0 0; padding-left: 1.3rem; font-size: 0.85rem; }
ol.demo-plan { list-style: decimal; } ul.demo-plan { list-style: disc; }
.demo-plan li + li { margin-top: 0.15rem; }
@media (max-width: 640px) { .demo-main { padding: 1rem; } }
"""


SUGGESTIONS = ["show orders from Berlin", "which orders are still processing?", "refund order 1042", "what can you do?"]


def index() -> rx.Component:
    """The dashboard with the copilot docked at the right."""
    return rx.fragment(
        rx.el.style(DEMO_CSS),
        cui.color_mode_from(DashboardState.theme),
        cui.sidebar(dashboard(), suggestions=SUGGESTIONS),
    )


def with_popup() -> rx.Component:
    """The same dashboard, the copilot in a popup at the bottom right."""
    return rx.fragment(
        rx.el.style(DEMO_CSS), cui.color_mode_from(DashboardState.theme), dashboard(), cui.popup(suggestions=SUGGESTIONS)
    )


def with_chat() -> rx.Component:
    """A page of its own with the copilot inline, filling its box."""
    return rx.el.main(
        rx.el.style(DEMO_CSS),
        cui.color_mode_from(DashboardState.theme),
        rx.heading("Ask about the sales", size="6", as_="h1"),
        rx.el.div(cui.chat(suggestions=SUGGESTIONS), class_name="demo-chat-box"),
        class_name="demo-main",
    )


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
