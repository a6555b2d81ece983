"""The browser side of where the copilot sits (cui_layout.jsx): the dock, the popup, the shortcut that opens the
copilot, Up-arrow in the empty message box, a message's actions."""

from __future__ import annotations

from typing import Any

import reflex as rx
from reflex.event import EventSpec, no_args_event_spec, passthrough_event_spec

_RUNTIME = rx.asset("cui_layout.jsx", shared=True)


class CuiDock(rx.Component):
    """The docked sidebar: collapsible to a button, resizable by its edge (width remembered), full screen when narrow."""

    library = _RUNTIME.importable_path
    tag = "CuiDock"

    title: rx.Var[str]  # the copilot's name, in its header
    width: rx.Var[int]  # px at first; the person's own width is remembered
    storage_key: rx.Var[str]  # where the browser remembers its width and whether it is collapsed
    open_label: rx.Var[str]  # the opener's accessible name
    resize_label: rx.Var[str]  # the edge's accessible name
    shortcut: rx.Var[str]  # "mod+/": Ctrl or ⌘ with /
    shortcut_keys: rx.Var[str]  # as aria-keyshortcuts names it
    open_title: rx.Var[str]  # the opener's tooltip, which says the shortcut


class CuiPopup(rx.Component):
    """A button at a corner of the page that opens the copilot in a panel; Escape closes it."""

    library = _RUNTIME.importable_path
    tag = "CuiPopup"

    title: rx.Var[str]  # the copilot's name, in its header
    open_label: rx.Var[str]  # the button's accessible name while closed
    close_label: rx.Var[str]  # and while open
    shortcut: rx.Var[str]  # "mod+/": Ctrl or ⌘ with /
    shortcut_keys: rx.Var[str]  # as aria-keyshortcuts names it
    open_title: rx.Var[str]  # the button's tooltips, which say the shortcut
    close_title: rx.Var[str]  # (while open)


class CuiShortcut(rx.Component):
    """The inline chat's shortcut: it puts the cursor in the message box."""

    library = _RUNTIME.importable_path
    tag = "CuiShortcut"

    shortcut: rx.Var[str]  # "mod+/": Ctrl or ⌘ with /


class CuiRecall(rx.Component):
    """Up-arrow in the empty message box edits the person's last message."""

    library = _RUNTIME.importable_path
    tag = "CuiRecall"


class CuiActions(rx.Component):
    """A message's icon buttons: copy it; edit one of the person's; regenerate the last reply; rate a reply. Its
    children are the icons, each marked data_icon (copy, copied, edit, regenerate, good, bad)."""

    library = _RUNTIME.importable_path
    tag = "CuiActions"

    tid: rx.Var[str]  # the message's text id: what Copy copies
    item_id: rx.Var[str]  # the message's item, which Edit, Regenerate and a rating name
    can_edit: rx.Var[bool]  # a message of the person's that can be rewritten
    can_regenerate: rx.Var[bool]  # the last reply, which can be asked for again
    rateable: rx.Var[bool]  # a reply the person can rate
    rating: rx.Var[str]  # their rating so far: "good", "bad" or ""
    words: rx.Var[dict[str, str]]  # the buttons' accessible names and tooltips (cui.Labels)
    on_edit: rx.EventHandler[passthrough_event_spec(dict[str, Any])]
    on_regenerate: rx.EventHandler[no_args_event_spec]
    on_rate: rx.EventHandler[passthrough_event_spec(dict[str, Any])]


def layout_command(command: str) -> EventSpec:
    """An event (in the browser only) that opens or closes the copilot's dock or popup."""
    return rx.call_script(f'window.dispatchEvent(new CustomEvent("cui-layout", {{detail: "{command}"}}))')
