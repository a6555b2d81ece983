"""A tool call as an app's renderer sees it: typed Vars of the call, and the events that act on it.

    @cui.render_tool("show_order")
    def order_card(call: cui.ToolCallView) -> rx.Component:
        order = call.result_json
        return rx.card(
            rx.heading("Order ", call.argument("order_id", "")),
            rx.text(order["customer"].to(str), " · ", order["total"].to(str)),
            rx.badge(rx.cond(call.status == "error", "Not found", call.status)),
        )

While the arguments stream, `arguments` holds what has arrived: a missing key reads as undefined,
which shows as nothing and iterates (rx.foreach) as an empty list; `argument(name, default)` gives
the default instead. The card is drawn from what the conversation keeps, so it looks the same after
a reload, from the conversations list, in another layout and after a restart. Everything in it came
from the agent: show it as text (Reflex components escape text), never as HTML.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, overload

import reflex as rx
from reflex.event import EventCallback

from ..state import CopilotState
from ..state._forms import RESPOND_DIGEST, RESPOND_ITEM
from ..state.view import Item

_RUNTIME = rx.asset("cui_form.jsx", shared=True)


class CuiFormFields(rx.Component):
    """Inside a question's form: unticked checkboxes go with the answer too (as False)."""

    library = _RUNTIME.importable_path
    tag = "CuiFormFields"


@dataclass(frozen=True)
class ToolCallView:
    """One call: its name, arguments (the partial object while they stream), status, result and progress."""

    item: rx.vars.ObjectVar[Item]

    @property
    def id(self) -> rx.vars.StringVar:
        """The call's item id in this conversation (short, made by the copilot, not the agent's id)."""
        return self.item["id"].to(str)

    @property
    def name(self) -> rx.vars.StringVar:
        """The tool's name."""
        return self.item["n"].to(str)

    @property
    def arguments(self) -> rx.vars.ObjectVar:
        """The arguments so far (a partial object while they stream), then the ones the call runs with (which a
        person who approved it, or the tool's prepare_arguments, may have changed from the agent's)."""
        return self.item["args"].to(dict)

    @overload
    def argument(self, name: str, default: str = "", type_: None = None) -> rx.vars.StringVar: ...
    @overload
    def argument(self, name: str, default: object, type_: object = None) -> rx.Var: ...
    def argument(self, name: str, default: Any = "", type_: Any = None) -> rx.Var:
        """One argument, or `default` while it has not arrived yet (`type_`: its type, else the default's)."""
        value = rx.cond(self.arguments.contains(name), self.arguments[name], default)
        return value.to(type_ if type_ is not None else type(default))

    @property
    def status(self) -> rx.vars.StringVar:
        """streaming, pending, running, awaiting_approval, awaiting_input, complete, error, denied, aborted, skipped."""
        return self.item["s"].to(str)

    @property
    def result(self) -> rx.Var[str]:
        """The result's text once the call has one ("" before; "Error: …" when it failed)."""
        return rx.cond(self.item["res"], self.item["res"].to(str), "")

    @property
    def result_json(self) -> rx.vars.ObjectVar:
        """The result parsed as JSON (what a tool returned as a dict, a list, a model), for a card to draw it as UI;
        null before the result, and when the result is not JSON (text, an error). Read fields as
        `call.result_json["customer"].to(str)`: a missing one reads as undefined, never an error."""
        return self.item["rj"].to(dict)

    @property
    def display(self) -> rx.vars.ObjectVar:
        """The texts the tool's `display=` function made in Python of the arguments so far and the result (money,
        dates, lists as the app writes them), kept up as the arguments stream: `call.display["total"]`. A text it did
        not make reads as undefined; when the function fails, the texts are the raw values (each argument, and each
        field of a result object, as text)."""
        return self.item["dv"].to(dict[str, str])

    def display_value(self, name: str, default: str = "") -> rx.Var[str]:
        """One text of `display`, or `default` while it is not made (the argument it comes from has not arrived)."""
        texts = self.display
        return rx.cond(self.item["dv"] & texts.contains(name), texts[name], default).to(str)

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

    def respond(self, value: object) -> EventCallback[()]:
        """The event that answers a waiting question with this value (it becomes the call's result)."""
        return CopilotState.respond(self.id, self.digest, value)

    def form(self, *children: Any, **props: Any) -> rx.Component:
        """A form whose fields answer the waiting question when it is sent.

        The answer is a dict of its fields by name: a text field's text; a checkbox alone under its name
        True when ticked and False when not (unticked ones included); checkboxes sharing a name, the list
        of the values of those ticked. A question function's `answer: dict[str, bool]` (or a TypedDict, a
        model) receives it checked against that type.
        """
        return rx.el.form(
            rx.el.input(type="hidden", name=RESPOND_ITEM, value=self.id),
            rx.el.input(type="hidden", name=RESPOND_DIGEST, value=self.digest),
            CuiFormFields.create(),
            *children,
            on_submit=CopilotState.respond_form,
            **props,
        )

    def approve(self) -> EventCallback[()]:
        """The event that approves the call as shown."""
        return CopilotState.approve(self.id, self.digest)

    def deny(self, reason: str = "") -> EventCallback[()]:
        """The event that denies the call."""
        return CopilotState.deny(self.id, self.digest, reason)

    def review(self) -> EventCallback[()]:
        """The event that opens the approval dialog of this call."""
        return CopilotState.review(self.id)
