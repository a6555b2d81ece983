"""The conversation as the copilot shows it: small items derived from the thread, and the texts behind them.

Items are what Reflex state holds and resends whole when the list changes, so they carry no text:
an item is its short id, its kind and a few short fields (a tool card's name, status, digest,
progress; an activity's type). Texts (what the person wrote, replies, reasoning, tool arguments and
results, errors, an activity's content) reach the browser through the text channel (`cui_text.jsx`),
each under a text id: the item's id, or for a tool card its id plus ".a" (arguments), ".r" (result)
or ".q" (the question or message). Cards an app draws itself (a tool's, an activity type's) carry
their data in the item instead, bounded.

The thread is the source of truth: the list of items is derived from its messages, plus what only
the view knows (errors and notices, how each call ended, the arguments a call ran with when a
person or a hook changed them, what the running turn is doing now). What the view knows is kept
with the thread, so that a conversation loaded from the store shows every card as it was shown,
an app's own cards included. No Reflex here, so that it is tested and stored as plain data.
"""

from __future__ import annotations

import copy
import dataclasses
import hashlib
import json
from dataclasses import dataclass, field
from typing import Any, Literal

from ag_ui.core import ActivityMessage, AssistantMessage, ReasoningMessage, ToolCall, UserMessage

from ...core import Thread
from ..declarations import copilot, display_texts
from ._attachments import files_field, words_of
from ._call_texts import (
    RENDERED_FIELD_LIMIT,
    activity_text,
    agent_outcome,
    arguments_text,
    bounded,
    bounded_json,
    drawn_activity,
    drawn_by_app,
    json_or_none,
    pretty_json,
    question_of,
    result_for_person,
    shown_arguments,
)

KIND_PREFIX = {"user": "u", "assistant": "a", "reasoning": "r", "tool": "t", "activity": "v", "error": "e", "notice": "n"}
TYPE_LIMIT = 100  # characters of an activity's type shown
COMPOSER_INPUT_ID = "cui-message"  # the message box: focused after a decision, refilled with what Stop handed back
Item = dict[str, Any]  # one item of the conversation as Reflex state holds it: {"id": ..., "k": its kind, ...}


@dataclass
class Note:
    """Something only the view says: an error, or a notice such as "Stopped."."""

    id: str
    kind: Literal["error", "notice"]
    text: str
    after: str | None  # the id of the message it follows (None: before every message)
    retry: bool = False  # an error whose failed step can run again


@dataclass
class LiveMarks:
    """What a running turn knows beyond the thread: texts still streaming, calls running, messages queued."""

    streaming: set[str] = field(default_factory=set)  # message ids whose text is being written
    arguments: set[str] = field(default_factory=set)  # call ids whose arguments are streaming
    running: set[str] = field(default_factory=set)  # call ids whose handler runs now
    progress: dict[str, str] = field(default_factory=dict)  # call id -> what it last reported
    queued: list[tuple[str, str]] = field(default_factory=list)  # (message id, text) written during the run


@dataclass
class Conversation:
    """Stable short ids for the thread's messages and calls, the view's notes, and how calls ended.

    Item ids start with a few characters of the thread's own (`key`): a tab that switches
    conversations, or still receives the end of another's reply, never mixes their texts.
    """

    key: str = ""
    ids: dict[str, str] = field(default_factory=dict)  # "m:<message id>" / "c:<call id>" -> item id
    keys: dict[str, str] = field(default_factory=dict)  # item id -> key
    notes: list[Note] = field(default_factory=list)
    outcomes: dict[str, str] = field(default_factory=dict)  # call id -> how it ended (complete, denied, aborted, …)
    thought: dict[str, float] = field(default_factory=dict)  # reasoning message id -> seconds spent
    ran_with: dict[str, dict[str, Any]] = field(default_factory=dict)  # call id -> its arguments as run, where not the agent's
    seqs: dict[str, int] = field(default_factory=dict)  # text id -> the last piece (or whole) the tab was sent
    counter: int = 0
    run_after: str | None = None  # while a run goes: the message it follows ("" before any); kept to spot a crash
    # While the person may still reject what a predictive state update wrote (PredictState): each state key's value
    # before it, in a list ([] when the state had no such key), and the calls whose arguments wrote it.
    predicted_from: dict[str, list[Any]] = field(default_factory=dict)
    predicted_calls: list[str] = field(default_factory=list)
    created: bool = False  # the store has the thread (a deleted one is not brought back)
    # What an app draws itself: tool names, and activity types after ACTIVITY; their cards carry the data (not kept)
    rendered: frozenset[str] = frozenset()
    runs: dict[str, str] = field(default_factory=dict)  # reply message id -> the agent's run that wrote it
    ratings: dict[str, str] = field(default_factory=dict)  # reply message id -> "good" / "bad" (kept by the store)

    @classmethod
    def of(cls, thread_id: str, rendered: frozenset[str] = frozenset()) -> Conversation:
        """The view of a new conversation of this thread; `rendered` names what an app draws itself."""
        return cls(key=hashlib.blake2s(thread_id.encode(), digest_size=3).hexdigest()[:4], rendered=rendered)

    # Kept with the thread in a store (ThreadStore notes: small JSON objects)

    def to_notes(self) -> list[dict[str, Any]]:
        """The view as JSON objects: its ids and outcomes first, then each note."""
        # (copies: a worker thread writes them to the store while the view goes on changing)
        view = {"key": self.key, "ids": dict(self.ids), "outcomes": dict(self.outcomes), "thought": dict(self.thought)}
        view |= {"ran_with": dict(self.ran_with), "counter": self.counter, "run_after": self.run_after}
        view |= {"predicted_from": copy.deepcopy(self.predicted_from), "predicted_calls": copy.deepcopy(self.predicted_calls)}
        view |= {"runs": dict(self.runs)}
        return [{"view": view}, *({"note": dataclasses.asdict(note)} for note in self.notes)]

    @classmethod
    def from_notes(cls, thread_id: str, saved: list[dict[str, Any]], rendered: frozenset[str] = frozenset()) -> Conversation:
        """The view as to_notes() kept it (a fresh one for a thread saved without)."""
        conversation = cls.of(thread_id, rendered)
        for entry in saved:
            if isinstance(entry.get("view"), dict):
                view = entry["view"]
                conversation.key = str(view.get("key") or conversation.key)
                conversation.ids = dict(view.get("ids") or {})
                conversation.keys = {item: key for key, item in conversation.ids.items()}
                conversation.outcomes = dict(view.get("outcomes") or {})
                conversation.thought = dict(view.get("thought") or {})
                conversation.ran_with = dict(view.get("ran_with") or {})
                conversation.counter = int(view.get("counter") or 0)
                conversation.run_after = view.get("run_after")
                conversation.predicted_from = dict(view.get("predicted_from") or {})
                conversation.predicted_calls = list(view.get("predicted_calls") or [])
                conversation.runs = dict(view.get("runs") or {})
            elif isinstance(entry.get("note"), dict):
                conversation.notes.append(Note(**entry["note"]))
        return conversation

    # Ids

    def item_id(self, key: str, kind: str) -> str:
        """The item id of a message ("m:<id>") or a call ("c:<id>"), made on first use."""
        item = self.ids.get(key)
        if item is None:
            self.counter += 1
            item = self.ids[key] = f"{self.key}{KIND_PREFIX[kind]}{self.counter}"
            self.keys[item] = key
        return item

    def message_item(self, message_id: str, kind: str) -> str:
        """The item id of a message."""
        return self.item_id("m:" + message_id, kind)

    def call_item(self, call_id: str) -> str:
        """The item id of a tool call's card."""
        return self.item_id("c:" + call_id, "tool")

    def message_of(self, item_id: str) -> str | None:
        """The message id behind a message's item id (None for anything else)."""
        key = self.keys.get(item_id, "")
        return key[2:] if key.startswith("m:") else None

    def call_of(self, item_id: str) -> str | None:
        """The call id behind a card's item id (None for anything else)."""
        key = self.keys.get(item_id, "")
        return key[2:] if key.startswith("c:") else None

    def add_note(self, kind: Literal["error", "notice"], text: str, after: str | None, retry: bool = False) -> Note:
        """A note placed after a message (ids of notes are items of their own)."""
        self.counter += 1
        note = Note(f"{self.key}{KIND_PREFIX[kind]}{self.counter}", kind, text, after, retry)
        self.clear_retry()  # only the newest error can be retried
        self.notes.append(note)
        return note

    def clear_retry(self) -> None:
        """The failed step ran again (or the person moved on): no error offers Retry any more."""
        for note in self.notes:
            note.retry = False

    def forget_retried(self) -> None:
        """Retry was pressed: the error that offered it is answered, and goes."""
        self.notes = [note for note in self.notes if not note.retry]

    def forget_notes_from(self, thread: Thread, message_id: str) -> None:
        """This message and those after it are being replaced (Regenerate, an edit): the notes about them go."""
        ids = [message.id for message in thread.messages]
        replaced = set(ids[ids.index(message_id) :]) if message_id in ids else set()
        self.notes = [note for note in self.notes if note.after not in replaced]

    # Items

    def items(self, thread: Thread, marks: LiveMarks | None = None) -> list[Item]:
        """Every item of the conversation, in order (the cards of the tools an app draws itself carry the call's data)."""
        marks = marks or LiveMarks()
        notes: dict[str | None, list[Note]] = {}
        for note in self.notes:
            notes.setdefault(note.after, []).append(note)
        items: list[Item] = [self._note_item(note) for note in notes.pop(None, ())]
        awaiting = getattr(thread, "awaiting", {})
        for message in thread.messages:
            if isinstance(message, UserMessage):
                items.append({"id": self.message_item(message.id, "user"), "k": "u", **files_field(message)})
            elif isinstance(message, ReasoningMessage):
                items.append(self._text_item(message.id, "reasoning", marks))
            elif isinstance(message, ActivityMessage):
                items.append(self._activity_item(message))
            elif isinstance(message, AssistantMessage):
                if _has_text(message.content) or message.id in marks.streaming:
                    items.append(self._text_item(message.id, "assistant", marks))
                for call in message.tool_calls or ():
                    items.append(self._card(thread, call, marks, awaiting))
            items.extend(self._note_item(note) for note in notes.pop(message.id, ()))
        for left in notes.values():  # notes whose message left the thread (a snapshot replaced it)
            items.extend(self._note_item(note) for note in left)
        for message_id, _ in marks.queued:
            items.append({"id": self.message_item(message_id, "user"), "k": "u", "q": 1})
        return items

    def _text_item(self, message_id: str, kind: str, marks: LiveMarks) -> Item:
        item: Item = {"id": self.message_item(message_id, kind), "k": KIND_PREFIX[kind]}
        if message_id in marks.streaming:
            item["live"] = 1
        if kind == "reasoning" and message_id in self.thought:
            item["sec"] = max(1, round(self.thought[message_id]))
        if kind == "assistant" and message_id in self.ratings:
            item["fb"] = self.ratings[message_id]
        return item

    def _card(self, thread: Thread, call: ToolCall, marks: LiveMarks, awaiting: dict[str, Any]) -> Item:
        name = call.function.name
        card: Item = {"id": self.call_item(call.id), "k": "t", "n": name}
        result = thread.result_of(call.id)
        waiting = awaiting.get(call.id)
        if call.id in marks.arguments:
            card["s"] = "streaming"
        elif result is not None:
            card["s"] = self.outcomes.get(call.id) or ("error" if result.error else agent_outcome(result))
        elif waiting is not None and call.id not in thread.decisions:
            card["s"] = "awaiting_approval" if waiting.kind == "approval" else "awaiting_input"
            card["d"] = waiting.digest
        elif call.id in marks.running:
            card["s"] = "running"
        else:
            card["s"] = "pending"
        if call.id in marks.progress:
            card["p"] = marks.progress[call.id]
        if drawn_by_app(name, self.rendered):
            card["args"] = self._arguments_so_far(thread, call)
            if result is not None and isinstance(result.content, str):
                card["res"] = result_for_person(result.content)[:RENDERED_FIELD_LIMIT]
                card["rj"] = json_or_none(card["res"])
            display = copilot.display_of(name)
            if display is not None:  # the texts the app's Python made of what the thread holds (ToolCallView.display)
                shown = card.get("rj") if card.get("rj") is not None else card.get("res")
                card["dv"] = display_texts(name, display, card["args"], shown)
        return card

    def _activity_item(self, message: ActivityMessage) -> Item:
        activity_type = message.activity_type[:TYPE_LIMIT]
        item: Item = {"id": self.message_item(message.id, "activity"), "k": "v", "at": activity_type}
        if drawn_activity(activity_type, self.rendered):
            item["c"] = bounded_json(message.content if isinstance(message.content, dict) else {})
        return item

    def arguments_of(self, thread: Thread, call: ToolCall) -> dict[str, Any] | None:
        """A call's arguments as the person is shown them: as it waits with them or ran with them (a tool's
        prepare_arguments, a hook or the person may have changed the agent's); None: as the agent sent them."""
        shown = shown_arguments(thread, call)
        return shown if shown is not None else self.ran_with.get(call.id)

    def _arguments_so_far(self, thread: Thread, call: ToolCall) -> dict[str, Any]:
        shown = self.arguments_of(thread, call)
        value = shown if shown is not None else thread.partial_arguments(call.id)
        if isinstance(value, dict):
            return {key: bounded(item) for key, item in value.items()}
        return {}

    def _note_item(self, note: Note) -> Item:
        item: Item = {"id": note.id, "k": KIND_PREFIX[note.kind]}
        if note.retry:
            item["retry"] = 1
        return item

    # Texts

    def text_of(self, tid: str, thread: Thread) -> str | None:
        """The whole text behind a text id, as the thread has it now (None: no such text)."""
        item, _, part = tid.partition(".")
        note = next((note for note in self.notes if note.id == item), None)
        if note is not None:
            return note.text if not part else None
        key = self.keys.get(item)
        if key is None:
            return None
        if key.startswith("m:"):
            message = thread.message(key[2:])
            if isinstance(message, ActivityMessage):
                return activity_text(message) if not part else None
            return _text(message.content) if message is not None and not part else None
        call = thread.tool_call(key[2:])
        if call is None:
            return None
        if part == "a":
            shown = self.arguments_of(thread, call)
            return pretty_json(shown) if shown is not None else arguments_text(call)
        if part == "r":
            result = thread.result_of(call.id)
            return result_for_person(_text(result.content)) if result is not None else ""
        if part == "q":
            return question_of(thread, call)
        return None


def _has_text(content: Any) -> bool:
    return isinstance(content, str) and content.strip() != ""


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if content is None:
        return ""
    if isinstance(content, list) and all(hasattr(part, "type") for part in content):  # parts: text and files
        return words_of(content)
    return json.dumps(content, ensure_ascii=False, default=str)
