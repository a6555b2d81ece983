"""The demo app: a small sales dashboard with its copilot docked at the right.

It shows what an app declares, one capability each:
- frontend tools that change the person's session (set_theme, filter_orders, city_sales,
  lookup_rate, which reports progress) and one that needs approval first (refund_order: a dialog
  says what will happen, and the reason may be changed);
- a tool drawn as a card of its own (show_order), a question answered in a checklist card
  (confirm_plan) and a plain question (ask_user);
- a tool that runs in the browser (copy_to_clipboard);
- the context the agent sees with every run (what the dashboard shows);
- the agent's shared state: the "Report draft" panel, which the agent writes and the person edits.

With no configuration it runs on the built-in demo model, offline; ask it "what can you do?".
"""

from __future__ import annotations

import asyncio
import importlib
import os
from dataclasses import dataclass
from typing import Any, Literal

import reflex as rx

import copilot_ui as cui
from copilot_ui.server import ReportState as AgentReport
from copilot_ui.server import agent_from_environment, demo_backend_tools

REVENUE, REVENUE_CHANGE = "$48,210", "+12% vs last month"
ORDERS_TOTAL, ORDERS_CHANGE = "1,284", "+4%"
REFUNDS_CHANGE = "-8%"
SALES_BY_CITY = {"Berlin": "$18,420", "Paris": "$15,310", "London": "$14,480"}
RATES = {"EUR": "1.08", "GBP": "1.27", "JPY": "0.0067", "CHF": "1.13"}


@dataclass
class Order:
    """A row of the orders table."""

    id: str
    customer: str
    city: str
    total: str
    status: str


def _first_orders() -> list[Order]:
    return [
        Order("#1042", "Ada Lovelace", "Berlin", "$120.00", "Shipped"),
        Order("#1041", "Alan Turing", "London", "$89.50", "Processing"),
        Order("#1040", "Grace Hopper", "Paris", "$310.25", "Delivered"),
        Order("#1039", "Edsger Dijkstra", "Berlin", "$45.00", "Refunded"),
        Order("#1038", "Margaret Hamilton", "Paris", "$210.00", "Shipped"),
        Order("#1037", "Linus Torvalds", "Berlin", "$75.00", "Delivered"),
        Order("#1036", "Barbara Liskov", "London", "$150.00", "Shipped"),
    ]


class DashboardState(rx.State):
    """What the person sees on the dashboard."""

    theme: str = "light"
    orders: list[Order] = rx.field(default_factory=_first_orders)
    city: str = ""  # the Orders table shows this city only ("" shows all)
    refunds: int = 23

    @rx.var
    def shown_orders(self) -> list[Order]:
        """The orders the table shows."""
        return [order for order in self.orders if not self.city or order.city == self.city]

    @rx.event
    def toggle_theme(self) -> None:
        """The theme button."""
        self.theme = "dark" if self.theme == "light" else "light"

    @rx.event
    def show_all_orders(self) -> None:
        """The filter's "Show all" button."""
        self.city = ""


class ReportState(rx.State):
    """The report draft the agent writes (its shared state) and the person edits."""

    report: str = ""

    @rx.event
    def set_report(self, text: str) -> None:
        """The person edited the draft."""
        self.report = text


cui.agent_state(ReportState)
# The built-in agent writes the report through its own backend tool (an AG-UI server behind
# COPILOT_AGENT_URL brings its own tools instead).
cui.copilot.agents.register(agent_from_environment("default", tools=demo_backend_tools(), state_type=AgentReport))


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


def order_card(call: cui.ToolCallView) -> rx.Component:
    """An order as a card of its own in the conversation."""
    order = call.arguments
    return rx.card(
        rx.hstack(
            rx.icon("package", size=16, aria_hidden="true"),
            rx.text("Order ", rx.text.strong(order["order_id"].to(str)), size="2"),
            rx.spacer(),
            rx.badge(rx.cond(call.is_done, "Found", "Looking…"), variant="soft", high_contrast=True),
            align="center",
        ),
        rx.cond(
            call.result != "",
            # it scrolls when long: focusable, so the keyboard can scroll it
            rx.el.pre(call.result, class_name="cui-tool-pre", tab_index=0, role="group", aria_label="Order details"),
            rx.text("…", color_scheme="gray"),
        ),
        role="region",
        aria_label="Order " + order["order_id"].to(str),
        size="1",
    )


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
    if order is None:
        raise ValueError(f"there is no order {order_id}; the dashboard shows {', '.join(o.id for o in state.orders)}")
    if order.status == "Refunded":
        return f"Order {order_id} was already refunded."
    order.status = "Refunded"
    state.refunds += 1
    return f"Refunded order {order_id} ({order.total} to {order.customer})."


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


def plan_card(call: cui.ToolCallView) -> rx.Component:
    """A checklist of the proposed steps: the person unticks what they do not want, then confirms."""
    steps = call.arguments["steps"].to(list[str])
    return rx.card(
        rx.text("Proposed plan", weight="bold", size="2"),
        rx.cond(
            call.status == "awaiting_input",
            call.form(
                rx.el.fieldset(
                    rx.el.legend("Keep the steps you want", class_name="cui-approval-label"),
                    rx.foreach(
                        steps,
                        lambda step, index: rx.el.label(
                            rx.el.input(type="checkbox", name=index.to(str), default_checked=True), step, class_name="demo-step"
                        ),
                    ),
                    class_name="demo-steps",
                ),
                rx.button("Confirm", type="submit", size="1"),
            ),
            rx.el.ul(rx.foreach(steps, lambda step: rx.el.li(step))),
        ),
        rx.cond(call.result != "", rx.text("Chosen: ", call.result, size="1", color_scheme="gray")),
        role="region",
        aria_label="Proposed plan",
        size="1",
    )


@cui.human_in_the_loop(render=plan_card)
def confirm_plan(steps: list[str], answer: dict[str, Any]) -> list[str]:
    """Propose the steps of a plan; the person chooses which to keep.

    Args:
        steps: The steps, in order.
    """
    return [step for index, step in enumerate(steps) if answer.get(str(index)) in ("on", True)]


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
        "kpis": {"Revenue": REVENUE, "Orders": ORDERS_TOTAL, "Refunds": str(state.refunds)},
        "kpi_changes": {"Revenue": REVENUE_CHANGE, "Orders": ORDERS_CHANGE, "Refunds": REFUNDS_CHANGE},
        "orders_filter": state.city,
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
                DashboardState.city != "",
                rx.hstack(
                    rx.badge("From ", DashboardState.city, variant="soft", high_contrast=True),
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
@media (max-width: 640px) { .demo-main { padding: 1rem; } }
"""


SUGGESTIONS = ["show orders from Berlin", "refund order 1042", "draft a weekly report", "what can you do?"]


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
app = rx.App(api_transformer=cui.content_security_policy(), toaster=rx.toast.provider(position="top-center"))
app.add_page(index, title="Acme sales · copilot_ui demo")
app.add_page(with_popup, route="/popup", title="Acme sales · the copilot in a popup")
app.add_page(with_chat, route="/chat", title="Acme sales · the copilot inline")
