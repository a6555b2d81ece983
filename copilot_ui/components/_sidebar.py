"""The three layouts of the copilot, one panel each: a docked sidebar, a popup, an inline chat.

    cui.sidebar(page_content)      docked at the right of the page's content; collapsible to a button,
                                   resizable by its edge (the width is remembered in the browser); on a
                                   narrow screen (< 640 px) a button that opens it full screen
    cui.popup()                    a button at the bottom right that opens the copilot in a panel
    cui.chat()                     a panel that fills the element it is put in

None of them styles the app's own elements.
"""

from __future__ import annotations

from collections.abc import Sequence

import reflex as rx

from ._layout import CuiDock, CuiPopup
from ._panel import panel
from ._styles import SIDEBAR_CSS


def sidebar(
    *children: rx.Component,
    agent: str = "default",
    title: str = "Copilot",
    width: int = 384,
    suggestions: Sequence[str] = (),
) -> rx.Component:
    """The copilot docked at the right; `children` are the page's own content, laid out at its left.

    Without children it is only the sidebar, for a page that lays itself out (it is a flex item).
    `width` is in pixels; `suggestions` are what an empty conversation offers to ask.
    """
    docked = rx.fragment(
        rx.el.style(SIDEBAR_CSS),
        CuiDock.create(panel(agent, title, suggestions, closable=True), title=title, width=width, storage_key="cui-sidebar"),
    )
    if not children:
        return docked
    return rx.el.div(rx.el.div(*children, class_name="cui-page-content"), docked, class_name="cui-page")


def popup(*, agent: str = "default", title: str = "Copilot", suggestions: Sequence[str] = ()) -> rx.Component:
    """A button at the bottom right of the page that opens the copilot; Escape closes it."""
    return rx.fragment(rx.el.style(SIDEBAR_CSS), CuiPopup.create(panel(agent, title, suggestions, closable=True), title=title))


def chat(*, agent: str = "default", title: str = "Copilot", suggestions: Sequence[str] = ()) -> rx.Component:
    """The copilot as a panel that fills its container (give the container a height)."""
    return rx.el.section(rx.el.style(SIDEBAR_CSS), panel(agent, title, suggestions), aria_label=title, class_name="cui-chat")
