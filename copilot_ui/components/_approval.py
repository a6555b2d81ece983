"""The approval dialog (role alertdialog): what the call will do, its arguments, Approve, and Deny with a reason.

Focus moves into the dialog when it opens (Radix traps it there); Escape or "Not now" closes it
without deciding and focus goes back to the card's Review button; after a decision it goes to the
message box (cui_approval.jsx: the dialog opens by itself, with no trigger to give focus back to).
The task panel's approval card shows a call's arguments with the same fields (`approval_fields`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import reflex as rx

from ..state import ApprovalState, CopilotState
from ..state.declarations import Labels
from ._looks import words

_RUNTIME = rx.asset("cui_approval.jsx", shared=True)


class CuiApprovalFocus(rx.Component):
    """Places focus when the dialog closes: on the Review button of the card left undecided, else on the message box."""

    library = _RUNTIME.importable_path
    tag = "CuiApprovalFocus"

    open: rx.Var[bool]  # the approval dialog is open
    undecided: rx.Var[str]  # the card whose dialog closed undecided: focus goes to its Review


def approval_dialog() -> rx.Component:
    """The dialog, once per copilot: it shows the call that waits for approval, if any."""
    return rx.fragment(
        _dialog(),
        CuiApprovalFocus.create(open=ApprovalState.open, undecided=ApprovalState.undecided),
    )


def _dialog() -> rx.Component:
    said = words()
    return rx.alert_dialog.root(
        rx.alert_dialog.content(
            rx.alert_dialog.title(ApprovalState.title),
            rx.alert_dialog.description(ApprovalState.sentence, size="2", class_name="cui-approval-sentence"),
            rx.el.form(
                _identity(),
                approval_fields(ApprovalState.fields, ApprovalState.editable, ApprovalState.digest, said),
                rx.cond(
                    ApprovalState.error != "",
                    rx.callout(ApprovalState.error, icon="triangle_alert", color_scheme="red", size="1", role="alert"),
                ),
                rx.hstack(
                    rx.alert_dialog.cancel(rx.button(said.not_now, variant="soft", color_scheme="gray", type="button")),
                    rx.button(rx.icon("check", size=14), said.approve, type="submit", auto_focus=True),
                    justify="end",
                    spacing="2",
                ),
                on_submit=CopilotState.approve_form,
                class_name="cui-approval-form",
            ),
            rx.el.form(
                _identity(),
                rx.el.label(said.deny_reason, html_for="cui-deny-reason", class_name="cui-approval-label"),
                rx.hstack(
                    rx.el.input(
                        id="cui-deny-reason",
                        name="reason",
                        placeholder=said.deny_placeholder,
                        class_name="cui-input",
                        auto_complete="off",
                    ),
                    rx.button(rx.icon("x", size=14), said.deny, type="submit", color_scheme="red", variant="soft"),
                    spacing="2",
                    align="center",
                    width="100%",
                ),
                on_submit=CopilotState.deny_form,
                reset_on_submit=True,
                class_name="cui-deny-form",
            ),
            max_width="28rem",
            class_name="cui-approval",
        ),
        open=ApprovalState.open,
        on_open_change=ApprovalState.close,
    )


def _identity() -> rx.Component:
    return rx.fragment(
        rx.el.input(type="hidden", name="item", value=ApprovalState.item),
        rx.el.input(type="hidden", name="digest", value=ApprovalState.digest),
    )


def approval_fields(
    fields: rx.vars.ArrayVar[Sequence[dict[str, Any]]],
    editable: rx.Var[bool] | bool,
    call: rx.vars.StringVar | str,
    said: Labels,
    *,
    ids: rx.vars.StringVar | None = None,
) -> rx.Component:
    """A waiting call's arguments as an approval shows them (the dialog, a task card): a fieldset of their values, an
    input where the person may edit one, named `arg:<name>` in the form. `call` tells calls apart (a new call's fields
    start from its own values); `ids` prefixes the inputs' ids, for several approvals on one page."""
    return rx.cond(
        fields.length() > 0,
        rx.el.fieldset(
            rx.el.legend(rx.cond(editable, said.editable_arguments, said.arguments)),
            rx.foreach(fields, lambda field: _field(field, call, ids)),
            class_name="cui-approval-fields",
        ),
    )


def _field(
    field: rx.vars.ObjectVar[dict[str, Any]], call: rx.vars.StringVar | str, ids: rx.vars.StringVar | None
) -> rx.Component:
    key = call + field["key"].to(str)  # a new call's fields start from its own values
    name, value = field["key"].to(str), field["value"].to(str)
    input_id = name if ids is None else ids + name
    return rx.el.div(
        rx.el.label(field["label"].to(str), html_for=input_id, class_name="cui-approval-name"),
        rx.cond(field["hint"], rx.el.span(field["hint"].to(str), class_name="cui-approval-label")),
        rx.cond(
            field["editable"],
            rx.match(
                field["kind"],
                ("boolean", rx.el.input(type="checkbox", id=input_id, name=name, default_checked=value == "true", key=key)),
                (
                    "choice",
                    rx.el.select(
                        rx.foreach(field["options"].to(list[str]), lambda option: rx.el.option(option, value=option)),
                        id=input_id,
                        name=name,
                        default_value=value,
                        key=key,
                        class_name="cui-input",
                    ),
                ),
                ("json", rx.el.textarea(id=input_id, name=name, default_value=value, rows=3, key=key, class_name="cui-input")),
                rx.el.input(
                    id=input_id,
                    name=name,
                    default_value=value,
                    key=key,
                    type=rx.cond((field["kind"] == "number") | (field["kind"] == "integer"), "number", "text"),
                    step=rx.cond(field["kind"] == "integer", "1", "any"),
                    class_name="cui-input",
                ),
            ),
            rx.el.div(value, id=input_id, class_name="cui-approval-value"),
        ),
        class_name="cui-approval-field",
    )
