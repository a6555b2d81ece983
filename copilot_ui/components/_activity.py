"""An agent's activity in the conversation (ACTIVITY_SNAPSHOT / ACTIVITY_DELTA): the app's card for its type, or
the default card, which shows the content as text.

    @cui.render_activity("progress")
    def progress_card(activity: cui.ActivityView) -> rx.Component:
        return rx.vstack(
            rx.text(activity.value("label", "")),
            rx.progress(value=activity.value("percent", 0)),
        )

The card follows the activity as the agent changes it, and is drawn from what the conversation keeps,
so it looks the same after a reload and when the conversation is opened again. Everything in it came
from the agent: show it as text (Reflex components escape text), never as HTML.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

import reflex as rx

from ..state import copilot
from ..state.view import Item
from ._looks import filled, words
from ._text import text


@dataclass(frozen=True)
class ActivityView:
    """One activity: its type and its content (an object the agent keeps changing)."""

    item: rx.vars.ObjectVar[Item]

    @property
    def id(self) -> rx.vars.StringVar:
        """The activity's item id in this conversation (short, made by the copilot, not the agent's id)."""
        return self.item["id"].to(str)

    @property
    def type(self) -> rx.vars.StringVar:
        """The activity's type, as the agent named it ("progress", "plan", …)."""
        return self.item["at"].to(str)

    @property
    def content(self) -> rx.vars.ObjectVar:
        """The content as it is now (long strings and lists cut short); a missing key reads as undefined."""
        return self.item["c"].to(dict)

    def value(self, name: str, default: Any = "", type_: Any = None) -> rx.Var:
        """One key of the content, or `default` while it has none (`type_`: its type, else the default's)."""
        found = rx.cond(self.content.contains(name), self.content[name], default)
        return found.to(type_ if type_ is not None else type(default))


def activity_card(item: rx.vars.ObjectVar[Item]) -> rx.Component:
    """An activity as a card: the app's own for its type (or its wildcard), the default card otherwise."""
    renderers = dict(copilot.activity_renderers)
    fallback = renderers.pop("*", None)
    default = _drawn(item, fallback) if fallback is not None else default_activity_card(item)
    if not renderers:
        return default
    cards = rx.match(item["at"], *((name, _drawn(item, renderer)) for name, renderer in renderers.items()), default)
    return cast(rx.Component, cards)  # rx.match is typed Component | Var whatever its cases


def default_activity_card(item: rx.vars.ObjectVar[Item]) -> rx.Component:
    """The card of an activity whose type has no card of its own: its type, and its content as text."""
    return rx.el.section(
        rx.hstack(
            rx.icon("activity", size=14, aria_hidden="true"),
            rx.code(item["at"], variant="ghost"),
            align="center",
        ),
        text(
            item["id"].to(str),
            markdown=False,
            class_name="cui-tool-pre",
            tab_index=0,
            role="group",
            aria_label=words().activity_content,
        ),
        class_name="cui-activity",
        data_kind="activity",
        data_activity=item["at"],
        aria_label=filled(words().activity_card, "{type}", item["at"].to(str)),
        key=item["id"],
    )


def _drawn(item: rx.vars.ObjectVar[Item], renderer: Callable[[ActivityView], rx.Component]) -> rx.Component:
    """An app's card, wrapped so that the conversation can find it (kind, type) like the default card."""
    return rx.el.div(
        renderer(ActivityView(item)),
        class_name="cui-drawn-activity",
        data_kind="activity",
        data_activity=item["at"],
        key=item["id"],
    )
