"""The demo dashboard's pages: the figures, the orders table, the app's own buttons driving the copilot, the report
draft; with the copilot as a sidebar, a popup, or inline."""

from __future__ import annotations

from typing import Any

import reflex as rx

import copilot_ui as cui
from copilot_ui.demo.dashboard import (
    ORDERS_CHANGE,
    ORDERS_TOTAL,
    REFUNDS_CHANGE,
    REVENUE,
    REVENUE_CHANGE,
    DashboardState,
    ReportState,
)
from copilot_ui.demo.orders import Order


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
