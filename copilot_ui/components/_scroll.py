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

    target: rx.Var[str]  # the id of the element that scrolls (the conversation)
    conversation: rx.Var[str]  # the thread shown: another one opens at its end
    has_older: rx.Var[bool]  # older items wait above: reaching the top asks for them
    jump_label: rx.Var[str]  # the "Jump to latest" button's words
    on_older: rx.EventHandler[rx.event.no_args_event_spec]


class CuiResume(rx.Component):
    """Asks for the tab's conversation as it is now whenever the page is hydrated (it loads, or its connection comes
    back: the server may have restarted), and when the tab has one but shows none (its session was renewed)."""

    library = _RUNTIME.importable_path
    tag = "CuiResume"

    thread_id: rx.Var[str]  # the thread the tab shows
    empty: rx.Var[bool]  # it shows no item although it has a thread (its session was renewed)
    hydrated: rx.Var[bool]  # the page's state came from the server (again, after a reconnect)
    on_resume: rx.EventHandler[rx.event.no_args_event_spec]
