"""The browser side of where the copilot sits (cui_layout.jsx): the dock, the popup, a message's actions."""

from __future__ import annotations

from typing import Any

import reflex as rx
from reflex.event import passthrough_event_spec

_RUNTIME = rx.asset("cui_layout.jsx", shared=True)


class CuiDock(rx.Component):
    """The docked sidebar: collapsible to a button, resizable by its edge (width remembered), full screen when narrow."""

    library = _RUNTIME.importable_path
    tag = "CuiDock"

    title: rx.Var[str]
    width: rx.Var[int]
    storage_key: rx.Var[str]


class CuiPopup(rx.Component):
    """A button at a corner of the page that opens the copilot in a panel; Escape closes it."""

    library = _RUNTIME.importable_path
    tag = "CuiPopup"

    title: rx.Var[str]


class CuiActions(rx.Component):
    """Copy a message; edit one of the person's and send it again."""

    library = _RUNTIME.importable_path
    tag = "CuiActions"

    tid: rx.Var[str]
    item_id: rx.Var[str]
    can_edit: rx.Var[bool]
    on_edit: rx.EventHandler[passthrough_event_spec(dict[str, Any])]


def layout_command(command: str) -> Any:
    """An event (in the browser only) that opens or closes the copilot's dock or popup."""
    return rx.call_script(f'window.dispatchEvent(new CustomEvent("cui-layout", {{detail: "{command}"}}))')
