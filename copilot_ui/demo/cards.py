"""The demo's own cards for its tools' calls: an order drawn as UI, and the plan a person chooses steps of.

Each is a function of a `cui.ToolCallView`: it reads the call's arguments while they stream, its
status, and its result as JSON, so it looks the same live, after a reload, from the conversations
list, in another layout and after a restart.
"""

from __future__ import annotations

from typing import cast

import reflex as rx
from reflex_components_radix.themes.base import LiteralAccentColor

import copilot_ui as cui

STATUS_COLORS = {"Shipped": "blue", "Processing": "amber", "Delivered": "green", "Refunded": "gray", "Cancelled": "gray"}


def order_card(call: cui.ToolCallView) -> rx.Component:
    """An order as a card: customer, city, total and a status badge ("Not found" when there is no such order)."""
    order_id = call.argument("order_id", "")
    order = call.result_json
    return rx.card(
        rx.hstack(
            rx.icon("package", size=16, aria_hidden="true"),
            rx.text("Order ", rx.text.strong(order_id), size="2"),
            rx.spacer(),
            _order_badge(call),
            align="center",
        ),
        rx.cond(
            call.status == "complete",
            rx.data_list.root(
                _field("Customer", order["customer"].to(str)),
                _field("City", order["city"].to(str)),
                _field("Total", order["total"].to(str)),
                orientation="horizontal",
                size="1",
                margin_top="0.5rem",
            ),
            rx.cond(
                call.status == "error",
                rx.text("There is no order ", order_id, " on the dashboard.", size="1", color_scheme="gray"),
                rx.cond(~call.is_done, rx.text("Looking it up…", size="1", color_scheme="gray")),
            ),
        ),
        role="region",
        aria_label="Order " + order_id,
        size="1",
    )


def _order_badge(call: cui.ToolCallView) -> rx.Component:
    status = call.result_json["status"].to(str)
    return rx.cond(
        call.status == "complete",
        rx.badge(status, color_scheme=_color(status), variant="soft", high_contrast=True),
        rx.badge(
            rx.cond(call.status == "error", "Not found", rx.cond(call.is_done, "Not shown", "Looking…")),
            color_scheme=rx.cond(call.status == "error", "red", "gray"),
            variant="soft",
            high_contrast=True,
        ),
    )


def _field(label: str, value: rx.Var[str]) -> rx.Component:
    return rx.data_list.item(rx.data_list.label(label), rx.data_list.value(value))


def plan_card(call: cui.ToolCallView) -> rx.Component:
    """A checklist of the proposed steps: the person unticks what they do not want and confirms; then the plan they
    kept, in words."""
    steps = call.argument("steps", [], list[str])
    kept = call.result_json.to(list[str])
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
            rx.cond(
                call.status == "complete",
                rx.box(
                    rx.text(
                        rx.cond(kept.length() == 0, "No steps kept.", "Your plan:"),
                        size="1",
                        color_scheme="gray",
                    ),
                    rx.el.ol(rx.foreach(kept, lambda step: rx.el.li(step)), class_name="demo-plan"),
                ),
                rx.cond(
                    call.is_done,
                    rx.text("No plan was chosen.", size="1", color_scheme="gray"),
                    rx.el.ul(rx.foreach(steps, lambda step: rx.el.li(step)), class_name="demo-plan"),
                ),
            ),
        ),
        role="region",
        aria_label="Proposed plan",
        size="1",
    )


def _color(status: rx.Var[str]) -> rx.Var[LiteralAccentColor]:
    return cast(rx.Var[LiteralAccentColor], rx.match(status, *STATUS_COLORS.items(), "gray"))  # rx.match is typed Component | Var
