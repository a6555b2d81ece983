"""The view model of a conversation (the second layer of the Reflex binding): small items derived from the thread, the
texts behind them and how a tab gets them, and what an approval shows (the dialog, the task panel). Plain data: no
Reflex state here."""

from ._approval_dialog import approval_request, approved_arguments, dialog_title, pending_approval
from ._call_texts import (
    activity_text,
    agent_outcome,
    arguments_text,
    drawn_activity,
    drawn_by_app,
    pretty_json,
    question_of,
    result_for_person,
    shown_arguments,
)
from ._conversation import COMPOSER_INPUT_ID, TYPE_LIMIT, Conversation, Item, LiveMarks, Note
from ._texts import SoFar, handover, whole_texts_script, window_texts

__all__ = [
    "COMPOSER_INPUT_ID",
    "TYPE_LIMIT",
    "Conversation",
    "Item",
    "LiveMarks",
    "Note",
    "SoFar",
    "activity_text",
    "agent_outcome",
    "approval_request",
    "approved_arguments",
    "arguments_text",
    "dialog_title",
    "drawn_activity",
    "drawn_by_app",
    "handover",
    "pending_approval",
    "pretty_json",
    "question_of",
    "result_for_person",
    "shown_arguments",
    "whole_texts_script",
    "window_texts",
]
