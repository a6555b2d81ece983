"""The three layouts of the copilot, one panel each: a docked sidebar, a popup, an inline chat.

    cui.sidebar(page_content)      docked at the right of the page's content; collapsible to a button,
                                   resizable by its edge (the width is remembered in the browser); on a
                                   narrow screen (< 640 px) a button that opens it full screen
    cui.popup()                    a button at the bottom right that opens the copilot in a panel
    cui.chat()                     a panel that fills the element it is put in

Each takes the copilot's look (see `_looks` and the customizing guide): `labels=` (every word), `title=`,
`placeholder=`, `greeting=`, `icons=`, `user_message=`, `assistant_message=`, `empty_state=` and `shortcut=`
(the keys that open it and put the cursor in its message box: "mod+/" by default, Ctrl or ⌘ with /); what a
layout leaves out comes from `cui.copilot`. None of them styles the app's own elements.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import reflex as rx

from .._checks import keywords_checked, layout_options
from ..state import copilot
from ..state.declarations import DEFAULT_ICONS, Icon, Labels
from ._layout import CuiDock, CuiPopup, CuiShortcut
from ._looks import Look, MessageComponent, icon, look_for_layout, looking, shortcut_hint, shortcut_keys
from ._panel import panel
from ._styles import SIDEBAR_CSS


@keywords_checked("cui.sidebar")
def sidebar(
    *children: rx.Component,
    agent: str = "default",
    title: str | None = None,
    width: int = 384,
    suggestions: Sequence[str] = (),
    labels: Labels | None = None,
    placeholder: str | None = None,
    greeting: str | None = None,
    icons: dict[str, Icon] | None = None,
    user_message: MessageComponent | None = None,
    assistant_message: MessageComponent | None = None,
    empty_state: Callable[[Labels], rx.Component] | None = None,
    shortcut: str | None = None,
) -> rx.Component:
    """The copilot docked at the right; `children` are the page's own content, laid out at its left.

    Without children it is only the sidebar, for a page that lays itself out (it is a flex item).
    `width` is in pixels (280 to 760); `suggestions` are what an empty conversation offers to ask.
    """
    chosen = look_for_layout(**_look_options("cui.sidebar", locals()))
    with looking(chosen):
        docked = rx.fragment(
            rx.el.style(SIDEBAR_CSS),
            CuiDock.create(
                _marked_icon("open"),
                panel(agent, chosen.labels.title, suggestions, closable=True),
                title=chosen.labels.title,
                width=width,
                storage_key="cui-sidebar",
                open_label=chosen.labels.open,
                resize_label=chosen.labels.resize,
                **_shortcut_props(chosen, "open"),
            ),
        )
    if not children:
        return docked
    return rx.el.div(rx.el.div(*children, class_name="cui-page-content"), docked, class_name="cui-page")


@keywords_checked("cui.popup")
def popup(
    *,
    agent: str = "default",
    title: str | None = None,
    suggestions: Sequence[str] = (),
    labels: Labels | None = None,
    placeholder: str | None = None,
    greeting: str | None = None,
    icons: dict[str, Icon] | None = None,
    user_message: MessageComponent | None = None,
    assistant_message: MessageComponent | None = None,
    empty_state: Callable[[Labels], rx.Component] | None = None,
    shortcut: str | None = None,
) -> rx.Component:
    """A button at the bottom right of the page that opens the copilot; Escape closes it."""
    chosen = look_for_layout(**_look_options("cui.popup", locals()))
    with looking(chosen):
        return rx.fragment(
            rx.el.style(SIDEBAR_CSS),
            CuiPopup.create(
                _marked_icon("open", size=22),
                _marked_icon("close_popup", "close", size=22),
                panel(agent, chosen.labels.title, suggestions, closable=True),
                title=chosen.labels.title,
                open_label=chosen.labels.open,
                close_label=chosen.labels.close,
                **_shortcut_props(chosen, "open", "close"),
            ),
        )


@keywords_checked("cui.chat")
def chat(
    *,
    agent: str = "default",
    title: str | None = None,
    suggestions: Sequence[str] = (),
    labels: Labels | None = None,
    placeholder: str | None = None,
    greeting: str | None = None,
    icons: dict[str, Icon] | None = None,
    user_message: MessageComponent | None = None,
    assistant_message: MessageComponent | None = None,
    empty_state: Callable[[Labels], rx.Component] | None = None,
    shortcut: str | None = None,
) -> rx.Component:
    """The copilot as a panel that fills its container (give the container a height); its shortcut focuses it."""
    chosen = look_for_layout(**_look_options("cui.chat", locals()))
    with looking(chosen):
        return rx.el.section(
            rx.el.style(SIDEBAR_CSS),
            CuiShortcut.create(shortcut=chosen.shortcut),
            panel(agent, chosen.labels.title, suggestions),
            aria_label=chosen.labels.title,
            class_name="cui-chat",
            aria_keyshortcuts=shortcut_keys(chosen.shortcut) if chosen.shortcut else None,
        )


_LOOK_OPTIONS = ("labels", "title", "placeholder", "greeting", "icons", "user_message", "assistant_message")
_LOOK_OPTIONS += ("empty_state", "shortcut")


def _look_options(where: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """The layout's look, its options checked (and the app's look they fall back on)."""
    checked = {name: arguments.get(name) for name in ("agent", "width", "suggestions", *_LOOK_OPTIONS)}
    layout_options(where, copilot, Labels, DEFAULT_ICONS, **checked)
    own = {"labels": copilot.labels, "icons": copilot.icons, "shortcut": copilot.shortcut}
    layout_options("cui.copilot", copilot, Labels, DEFAULT_ICONS, **own)
    return {name: arguments[name] for name in _LOOK_OPTIONS}


def _marked_icon(name: str, role: str | None = None, size: int = 16) -> rx.Component:
    """An icon the browser side places itself (cui_layout.jsx reads data-icon)."""
    return rx.el.span(icon(name, size=size), data_icon=role or name, class_name="cui-icon", aria_hidden="true")


def _shortcut_props(chosen: Look, *labels: str) -> dict[str, str]:
    """The shortcut, and the tooltips of the buttons with these labels' names (`open`, `close`) that say it."""
    if not chosen.shortcut:
        return {"shortcut": ""}
    hint = shortcut_hint(chosen.shortcut, chosen.labels)
    return {
        "shortcut": chosen.shortcut,
        "shortcut_keys": shortcut_keys(chosen.shortcut),
        **{f"{name}_title": chosen.labels.said("with_keys", label=getattr(chosen.labels, name), keys=hint) for name in labels},
    }
