"""A message as an app's own component sees it (`user_message=`, `assistant_message=`): typed Vars and its words.

    def my_reply(message: cui.MessageView) -> rx.Component:
        return rx.card(rx.hstack(rx.avatar(fallback="AI"), message.content()))

    cui.sidebar(assistant_message=my_reply)

The words never travel in the Reflex state (they stream into the browser piece by piece): `content()` is the
component that shows them, safely (Markdown without raw HTML for a reply, plain text for the person's). The
copilot's actions (Copy, Edit, Regenerate, the ratings) stay beside the app's component.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

import reflex as rx

from ..state.view import Item
from ._text import text


@dataclass(frozen=True)
class MessageView:
    """One message of the conversation, of the person ("user") or of the agent ("assistant")."""

    item: rx.vars.ObjectVar[Item]
    role: Literal["user", "assistant"]

    @property
    def id(self) -> rx.vars.StringVar:
        """The message's item id in this conversation (short, made by the copilot)."""
        return self.item["id"].to(str)

    @property
    def is_live(self) -> rx.Var[bool]:
        """Whether the agent is still writing it."""
        return self.item["live"].bool()

    @property
    def is_queued(self) -> rx.Var[bool]:
        """Whether it was written while the agent worked, and waits for the next run."""
        return self.item["q"].bool()

    @property
    def rating(self) -> rx.Var[str]:
        """The person's rating of a reply: "good", "bad", or "" (none)."""
        return rx.cond(self.item["fb"], self.item["fb"].to(str), "")

    def content(self, **props: Any) -> rx.Component:
        """The message's words: a reply as safe Markdown (live while it streams), the person's as plain text."""
        if self.role == "user":
            return text(self.id, markdown=False, **props)
        return text(self.id, live=self.is_live, **props)
