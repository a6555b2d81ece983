"""A task's tool calls as the task panel shows them: a card per call, made from the run loop's events.

Everything on a card is scrubbed of secrets, then cut to a length the page can carry. A call waiting for approval
shows what the chat's approval dialog shows (its title, its sentence, every argument Approve runs as a field,
editable where the tool allows: `view/_approval_dialog.py` makes both).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from ag_ui.core import ToolCallStartEvent

from ..agents import Scrubber
from ..core import AwaitingPerson, Event, Thread, ToolExecutionEnded, ToolExecutionStarted
from .declarations import copilot
from .view import approval_request, result_for_person

SHOWN_LIMIT = 2_000  # characters of a call's result or question a card shows, and of its arguments once decided
NAME_LIMIT = 100  # characters of a tool's name (from the agent) a card shows
Card = dict[str, Any]  # one call's card, as the task panel gets it (title, status, arguments, result...)
WAITING = ("awaiting_approval", "awaiting_input")  # a card's statuses while its call waits for the person


@dataclass(eq=False)
class TaskCards:
    """The cards of one task's tool calls, by call id."""

    task_id: str
    thread: Thread
    scrubber: Scrubber
    by_call: dict[str, Card] = field(default_factory=dict)

    def change(self, event: Event) -> bool:
        """Change the cards as the event says (the agent's own results come as ToolExecutionEnded); whether one
        changed."""
        cards = self.by_call
        if isinstance(event, ToolCallStartEvent):
            cards[event.tool_call_id] = self._card(event.tool_call_id, event.tool_call_name, "running")
        elif isinstance(event, ToolExecutionStarted) and event.call_id in cards:
            cards[event.call_id] |= self.decided(event.tool_name) | {"arguments": self._cut(_whole(event.arguments))}
        elif isinstance(event, AwaitingPerson) and event.kind == "approval":
            card = cards.get(event.call_id) or self._card(event.call_id, event.tool_name, "running")
            cards[event.call_id] = card | self._approval(event, card["id"])
        elif isinstance(event, AwaitingPerson):
            card = cards.get(event.call_id) or self._card(event.call_id, event.tool_name, "running")
            cards[event.call_id] = card | {
                "status": "awaiting_input",
                "digest": event.digest,
                "arguments": self.scrubber.scrub(_whole(event.arguments)),
                "question": self._cut(event.message or str(event.arguments.get("question") or "")),
            }
        elif isinstance(event, ToolExecutionEnded) and event.call_id in cards:
            result = self._cut(result_for_person(event.result))
            cards[event.call_id] |= self.decided(event.tool_name, event.status) | {"result": result}
        else:
            return False
        return True

    def decided(self, tool_name: str, status: str = "running") -> Card:
        """A card whose call no longer waits for the person: its title again the tool's (its `title=`, else its
        name), no approval to show."""
        ui = copilot.tool_ui.get(tool_name)
        title = (ui.title if ui is not None else "") or self._cut(tool_name, NAME_LIMIT)
        return {"status": status, "title": title, "digest": "", "sentence": "", "fields": [], "editable": False, "error": ""}

    def shown(self, everything: bool) -> list[Card]:
        """The cards the panel shows: all of them, or those waiting for the person; secrets scrubbed (the texts were
        scrubbed before they were cut; this pass is for the ids the agent named)."""
        cards = [card for card in self.by_call.values() if everything or card["status"] in WAITING]
        return [{key: self.scrubbed(value) for key, value in card.items()} for card in cards]

    def scrubbed(self, value: Any) -> Any:
        """Every string in a value (keys too, at any depth) with its secrets scrubbed."""
        if isinstance(value, str):
            return self.scrubber.scrub(value)
        if isinstance(value, dict):
            return {self.scrubbed(key): self.scrubbed(item) for key, item in value.items()}
        if isinstance(value, (list, tuple)):
            return [self.scrubbed(item) for item in value]
        return value

    def _approval(self, event: AwaitingPerson, card_id: str) -> Card:
        call = self.thread.tool_call(event.call_id)
        tool, ui = copilot.tool(event.tool_name), copilot.tool_ui.get(event.tool_name)
        if call is None:
            return {"status": "awaiting_approval", "digest": event.digest}
        shown = approval_request(card_id, event.digest, call, event.arguments, tool, ui)
        fields = [field | {"value": self.scrubber.scrub(field["value"])} for field in shown["fields"]]
        return {
            "status": "awaiting_approval",
            "digest": event.digest,
            "title": self.scrubber.scrub(shown["title"]),
            "sentence": self.scrubber.scrub(shown["sentence"]),
            "fields": fields,
            "editable": shown["editable"],
            "arguments": self.scrubber.scrub(_whole(event.arguments)),  # all that Approve runs (the panel shows fields)
            "error": "",
        }

    def _cut(self, text: str, limit: int = SHOWN_LIMIT) -> str:
        """The text scrubbed, then cut to `limit` characters: a secret the cut would split is still recognised."""
        text = self.scrubber.scrub(text)
        return text if len(text) <= limit else text[: limit - 1] + "…"

    def _card(self, call_id: str, tool_name: str, status: str) -> Card:
        return {
            "id": f"{self.task_id}:{call_id}",
            "tool": self._cut(tool_name, NAME_LIMIT),
            "arguments": "",
            "question": "",
            "result": "",
        } | self.decided(tool_name, status)


def _whole(arguments: Any) -> str:
    return json.dumps(arguments, indent=2, ensure_ascii=False, default=str)
