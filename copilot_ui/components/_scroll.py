"""How the conversation scrolls (cui_scroll.jsx): following new content, "Jump to latest", older items at the top."""

from __future__ import annotations

import reflex as rx

_RUNTIME = rx.asset("cui_scroll.jsx", shared=True)


class CuiScroll(rx.Component):
    """Keeps the element with id `target` at its end while the person is there; asks for older items at the top.

    It shows the end when it appears (an opened popup) and when `conversation` (its id) changes.
    """

    library = _RUNTIME.importable_path
    tag = "CuiScroll"

    target: rx.Var[str]
    conversation: rx.Var[str]
    has_older: rx.Var[bool]
    jump_label: rx.Var[str]
    on_older: rx.EventHandler[rx.event.no_args_event_spec]


class CuiResume(rx.Component):
    """Asks for the tab's conversation as it is now whenever the page is hydrated (it loads, or its connection comes
    back: the server may have restarted), and when the tab has one but shows none (its session was renewed)."""

    library = _RUNTIME.importable_path
    tag = "CuiResume"

    thread_id: rx.Var[str]
    empty: rx.Var[bool]
    hydrated: rx.Var[bool]
    on_resume: rx.EventHandler[rx.event.no_args_event_spec]
