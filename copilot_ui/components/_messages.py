"""The conversation: a window of its items (earlier ones on request), then what the copilot does now.

Each item is small (id, kind, a few fields); its text comes from the browser's text store, so a
reply that streams changes nothing here: only the text component of that reply re-renders.
"""

from __future__ import annotations

from collections.abc import Sequence

import reflex as rx

from ..state import CopilotState, LiveState
from ..state.declarations import Labels
from ..state.view import Item
from ._activity import activity_card
from ._attachments import message_files
from ._layout import CuiActions
from ._looks import icon, look, words
from ._message_view import MessageView
from ._scroll import CuiScroll
from ._text import text
from ._tool_card import tool_card

CONVERSATION_ID = "cui-conversation"


def conversation(suggestions: Sequence[str] = ()) -> rx.Component:
    """Every item shown, then the status line; on an empty conversation, the greeting and the app's suggestions."""
    said = words()
    return rx.el.div(
        CuiScroll.create(
            target=CONVERSATION_ID,
            conversation=CopilotState.thread_id,
            has_older=CopilotState.has_older,
            jump_label=said.jump_to_latest,
            on_older=CopilotState.load_older,
        ),
        rx.cond(
            CopilotState.has_older,
            rx.el.button(said.show_earlier, type="button", on_click=CopilotState.load_older, class_name="cui-older"),
        ),
        rx.cond((CopilotState.items.length() == 0) & ~LiveState.running, _welcome(suggestions)),
        rx.foreach(CopilotState.older, chat_item),
        rx.foreach(CopilotState.items, chat_item),
        rx.cond(
            LiveState.status != "",
            rx.text(LiveState.status, size="1", color_scheme="gray", class_name="cui-status", role="status"),
        ),
        rx.cond(
            (CopilotState.suggestions.length() > 0) & ~LiveState.running,
            rx.el.div(rx.foreach(CopilotState.suggestions, _chip), class_name="cui-chips", aria_label=said.suggestions),
        ),
        id=CONVERSATION_ID,
        class_name="cui-conversation",
        role="log",
        aria_live="polite",
        aria_label=said.conversation,
    )


def chat_item(item: rx.vars.ObjectVar[Item]) -> rx.Component:
    """One item, by its kind (keyed by its id: when the window moves, the items that stay are kept, not rebuilt)."""
    return rx.fragment(
        rx.match(
            item["k"],
            ("u", _user(item)),
            ("a", _reply(item)),
            ("r", _reasoning(item)),
            ("t", tool_card(item)),
            ("v", activity_card(item)),
            ("e", _error(item)),
            ("n", _notice(item)),
            rx.fragment(),
        ),
        key=item["id"],
    )


def _user(item: rx.vars.ObjectVar[Item]) -> rx.Component:
    item_id, said, own = item["id"].to(str), words(), look().user_message
    return rx.el.div(
        rx.el.div(
            own(MessageView(item, "user")) if own is not None else text(item_id, markdown=False),
            rx.cond(item["q"], rx.el.span(said.queued, class_name="cui-queued")),
            message_files(item),
            class_name="cui-user cui-own" if own is not None else "cui-user",
            data_kind="user",
            data_queued=rx.cond(item["q"], "true", "false"),
        ),
        rx.cond(~item["q"].bool(), _actions(item_id, can_edit=~LiveState.running)),
        class_name="cui-turn cui-turn-user",
        role="group",
        aria_label=said.you,
        key=item_id,
    )


def _reply(item: rx.vars.ObjectVar[Item]) -> rx.Component:
    item_id, own = item["id"].to(str), look().assistant_message
    return rx.el.div(
        rx.el.div(
            own(MessageView(item, "assistant")) if own is not None else text(item_id, live=item["live"].bool()),
            class_name="cui-reply cui-own" if own is not None else "cui-reply",
            data_kind=rx.cond(item["live"], "live", "assistant"),
        ),
        rx.cond(
            ~item["live"].bool(),
            _actions(
                item_id,
                can_regenerate=(CopilotState.last_reply == item_id) & ~LiveState.running,
                rating=rx.cond(item["fb"], item["fb"].to(str), ""),
            ),
        ),
        class_name="cui-turn",
        role="group",
        aria_label=words().assistant,
        key=item_id,
    )


def _actions(
    item_id: rx.Var[str],
    *,
    can_edit: rx.Var[bool] | bool = False,
    can_regenerate: rx.Var[bool] | None = None,
    rating: rx.Var[str] | None = None,
) -> rx.Component:
    """A message's icon buttons: Copy; Edit (the person's); Regenerate (the last reply); the ratings (a reply's)."""
    said = words()
    reply = rating is not None
    icons = [("copy", "copy"), ("copied", "copied"), ("edit", "edit")]
    icons += [("regenerate", "regenerate"), ("good", "good_response"), ("bad", "bad_response")] if reply else []
    return CuiActions.create(
        *(rx.el.span(icon(name, size=15), data_icon=key, class_name="cui-icon") for key, name in icons),
        tid=item_id,
        item_id=item_id,
        can_edit=can_edit,
        can_regenerate=can_regenerate if can_regenerate is not None else False,
        rateable=reply,
        rating=rating if reply else "",
        words=_action_words(said),
        on_edit=CopilotState.edit,
        on_regenerate=CopilotState.regenerate,
        on_rate=CopilotState.rate,
    )


def _action_words(said: Labels) -> dict[str, str]:
    """The words cui_layout.jsx's CuiActions reads."""
    return {
        "copy": said.copy,
        "copied": said.copied,
        "edit": said.edit,
        "editBox": said.edit_box,
        "cancel": said.cancel,
        "send": said.send,
        "regenerate": said.regenerate,
        "good": said.good_response,
        "bad": said.bad_response,
        "comment": said.feedback_comment,
        "sendFeedback": said.send_feedback,
        "thanks": said.feedback_thanks,
    }


def _reasoning(item: rx.vars.ObjectVar[Item]) -> rx.Component:
    said = words()
    before, _, after = said.thought_for.partition("{seconds}")
    return rx.el.details(
        rx.el.summary(
            rx.cond(item["live"], said.thinking, rx.cond(item["sec"], before + item["sec"].to(str) + after, said.thoughts))
        ),
        text(item["id"], live=item["live"].bool(), class_name="cui-reasoning-text"),
        class_name="cui-reasoning",
        data_kind="reasoning",
        key=item["id"],
    )


def _error(item: rx.vars.ObjectVar[Item]) -> rx.Component:
    return rx.callout.root(
        rx.callout.icon(icon("error")),
        rx.el.div(
            text(item["id"], markdown=False),
            rx.cond(
                item["retry"],
                rx.button(
                    words().retry, size="1", variant="soft", color_scheme="red", on_click=CopilotState.retry, type="button"
                ),
            ),
            class_name="cui-error-body",
        ),
        color_scheme="red",
        size="1",
        role="alert",
        data_kind="error",
        key=item["id"],
    )


def _notice(item: rx.vars.ObjectVar[Item]) -> rx.Component:
    return rx.el.div(text(item["id"], markdown=False), class_name="cui-notice", data_kind="notice", key=item["id"])


def _welcome(suggestions: Sequence[str]) -> rx.Component:
    said, own = words(), look().empty_state
    return rx.el.div(
        own(said) if own is not None else rx.text(said.greeting, size="2", color_scheme="gray", class_name="cui-greeting"),
        rx.el.div(*(_chip(suggestion) for suggestion in suggestions), class_name="cui-chips", aria_label=said.suggestions)
        if suggestions
        else rx.fragment(),
        class_name="cui-welcome",
    )


def _chip(suggestion: rx.Var[str] | str) -> rx.Component:
    return rx.el.button(suggestion, type="button", class_name="cui-chip", on_click=CopilotState.send({"message": suggestion}))
