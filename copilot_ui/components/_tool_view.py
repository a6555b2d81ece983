"""A tool call as an app's renderer sees it: typed Vars of the call, and the events that act on it.

    @cui.render_tool("show_order")
    def order_card(call: cui.ToolCallView) -> rx.Component:
        return rx.card(rx.heading("Order ", call.arguments["order_id"]), rx.text(call.status))

Everything in it came from the agent: show it as text (Reflex components escape text), never as HTML.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import reflex as rx

from ..state import CopilotState
from ..state._copilot import RESPOND_DIGEST, RESPOND_ITEM


@dataclass(frozen=True)
class ToolCallView:
    """One call: its name, arguments (the partial object while they stream), status, result and progress."""

    item: rx.Var

    @property
    def id(self) -> rx.Var[str]:
        """The call's item id in this conversation (short, made by the copilot, not the agent's id)."""
        return self.item["id"].to(str)

    @property
    def name(self) -> rx.Var[str]:
        """The tool's name."""
        return self.item["n"].to(str)

    @property
    def arguments(self) -> rx.vars.ObjectVar:
        """The arguments so far (a partial object while they stream), then the final ones."""
        return self.item["args"].to(dict)

    @property
    def status(self) -> rx.Var[str]:
        """streaming, pending, running, awaiting_approval, awaiting_input, complete, error, denied, aborted, skipped."""
        return self.item["s"].to(str)

    @property
    def result(self) -> rx.Var[str]:
        """The result's text once the call has one ("" before)."""
        return rx.cond(self.item["res"], self.item["res"].to(str), "")

    @property
    def progress(self) -> rx.Var[str]:
        """What the running tool last reported ("" if nothing)."""
        return rx.cond(self.item["p"], self.item["p"].to(str), "")

    @property
    def digest(self) -> rx.Var[str]:
        """The digest of the arguments the person is shown, while the call waits for them."""
        return rx.cond(self.item["d"], self.item["d"].to(str), "")

    @property
    def is_streaming(self) -> rx.Var[bool]:
        """The agent is still writing the arguments."""
        return self.status == "streaming"

    @property
    def is_waiting(self) -> rx.Var[bool]:
        """The call waits for the person (approval or an answer)."""
        return (self.status == "awaiting_approval") | (self.status == "awaiting_input")

    @property
    def is_done(self) -> rx.Var[bool]:
        """The call has its result (whatever it was)."""
        return ~self.is_streaming & ~self.is_waiting & (self.status != "running") & (self.status != "pending")

    def respond(self, value: Any) -> Any:
        """The event that answers a waiting question with this value (it becomes the call's result)."""
        return CopilotState.respond(self.id, self.digest, value)

    def form(self, *children: Any, **props: Any) -> rx.Component:
        """A form whose fields answer the waiting question when it is sent (their values become the answer)."""
        return rx.el.form(
            rx.el.input(type="hidden", name=RESPOND_ITEM, value=self.id),
            rx.el.input(type="hidden", name=RESPOND_DIGEST, value=self.digest),
            *children,
            on_submit=CopilotState.respond_form,
            **props,
        )

    def approve(self) -> Any:
        """The event that approves the call as shown."""
        return CopilotState.approve(self.id, self.digest)

    def deny(self, reason: str = "") -> Any:
        """The event that denies the call."""
        return CopilotState.deny(self.id, self.digest, reason)

    def review(self) -> Any:
        """The event that opens the approval dialog of this call."""
        return CopilotState.review(self.id)
