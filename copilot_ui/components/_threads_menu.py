"""The list of the person's conversations, in the copilot's header: search, switch, new, rename, delete."""

from __future__ import annotations

import reflex as rx

from ..state import CopilotState, ThreadsState
from ._looks import filled, icon, words


def threads_menu() -> rx.Component:
    """A button that opens the list of conversations."""
    said = words()
    return rx.popover.root(
        rx.popover.trigger(
            rx.icon_button(
                icon("conversations"),
                variant="ghost",
                aria_label=said.conversations,
                title=said.conversations,
                type="button",
            )
        ),
        rx.popover.content(
            rx.el.div(
                rx.el.input(
                    type="search",
                    placeholder=said.search_conversations,
                    aria_label=said.search_conversations,
                    default_value=ThreadsState.search,
                    on_change=ThreadsState.find.debounce(250),
                    class_name="cui-input",
                ),
                # on_click on the close, not its button: Reflex would wrap the button in a box of its own.
                rx.popover.close(
                    rx.button(
                        icon("new_conversation", size=14),
                        said.new_conversation,
                        variant="soft",
                        size="1",
                        type="button",
                        class_name="cui-threads-new",
                    ),
                    on_click=CopilotState.new_conversation,
                ),
                class_name="cui-threads-top",
            ),
            rx.cond(
                ThreadsState.threads.length() == 0,
                rx.text(
                    rx.cond(ThreadsState.searched, said.no_match, said.no_conversations),
                    size="1",
                    color_scheme="gray",
                    class_name="cui-threads-empty",
                ),
            ),
            rx.el.ul(rx.foreach(ThreadsState.threads, _thread_row), class_name="cui-threads", aria_label=said.conversations),
            class_name="cui-threads-menu",
            align="end",
        ),
        on_open_change=ThreadsState.opened,
    )


def _thread_row(thread: rx.vars.ObjectVar[dict[str, str]]) -> rx.Component:
    thread_id, title = thread["id"].to(str), thread["title"].to(str)
    return rx.el.li(
        rx.cond(
            ThreadsState.renaming == thread_id,
            _rename_form(thread_id, title),
            rx.cond(ThreadsState.deleting == thread_id, _confirm_delete(thread_id, title), _entry(thread_id, title, thread)),
        ),
        class_name=rx.cond(CopilotState.thread_id == thread_id, "cui-thread cui-thread-current", "cui-thread"),
        key=thread_id,
    )


def _entry(thread_id: rx.vars.StringVar, title: rx.vars.StringVar, thread: rx.vars.ObjectVar[dict[str, str]]) -> rx.Component:
    return rx.fragment(
        # The button stretches over the whole row (see .cui-thread-open); Rename and Delete lie above it.
        rx.popover.close(
            rx.el.button(
                rx.el.span(title, class_name="cui-thread-title"),
                rx.el.span(thread["when"].to(str), class_name="cui-thread-when"),
                type="button",
                class_name="cui-thread-open",
                aria_current=rx.cond(CopilotState.thread_id == thread_id, "true", "false"),
            ),
            on_click=ThreadsState.select(thread_id),
        ),
        rx.icon_button(
            rx.icon("pencil", size=12),
            variant="ghost",
            size="1",
            aria_label=filled(words().rename, "{title}", title),
            on_click=ThreadsState.start_rename(thread_id),
            auto_focus=ThreadsState.refocus == "rename:" + thread_id,
            type="button",
            class_name="cui-thread-action",
        ),
        rx.icon_button(
            rx.icon("trash-2", size=12),
            variant="ghost",
            size="1",
            color_scheme="red",
            aria_label=filled(words().delete, "{title}", title),
            on_click=ThreadsState.ask_delete(thread_id),
            auto_focus=ThreadsState.refocus == "delete:" + thread_id,
            type="button",
            class_name="cui-thread-action",
        ),
    )


def _rename_form(thread_id: rx.Var[str], title: rx.vars.StringVar) -> rx.Component:
    return rx.el.form(
        rx.el.input(type="hidden", name="thread", value=thread_id),
        rx.el.input(name="title", default_value=title, aria_label=words().new_title, auto_focus=True, class_name="cui-input"),
        rx.button(words().save, type="submit", size="1"),
        rx.button(words().cancel, type="button", size="1", variant="soft", color_scheme="gray", on_click=ThreadsState.cancel),
        on_submit=ThreadsState.rename,
        class_name="cui-thread-rename",
    )


_FOCUS_SEARCH = "document.querySelector('.cui-threads-menu input[type=search]')?.focus()"


def _confirm_delete(thread_id: rx.Var[str], title: rx.vars.StringVar) -> rx.Component:
    return rx.el.div(
        rx.text(filled(words().confirm_delete, "{title}", title), size="1"),
        rx.button(
            words().delete_button,
            size="1",
            color_scheme="red",
            # the row goes: the focus goes to the list's search box first, not lost on the page
            on_click=[rx.call_script(_FOCUS_SEARCH), ThreadsState.delete(thread_id)],
            type="button",
        ),
        rx.button(
            words().keep,
            size="1",
            variant="soft",
            color_scheme="gray",
            on_click=ThreadsState.cancel,
            type="button",
            auto_focus=True,  # the safe answer first
        ),
        class_name="cui-thread-confirm",
        role="alert",
    )
