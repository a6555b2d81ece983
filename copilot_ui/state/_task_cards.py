"""A task's tool calls as the task panel shows them: the chat's cards (the conversation's items, with their statuses
and texts), each with its texts in it, since the panel gets no text channel.

Everything on a card is scrubbed of secrets, then cut to a length the page can carry. A call waiting for approval
shows what the chat's approval dialog shows (its title, its sentence, every argument Approve runs as a field,
editable where the tool allows: `view/_approval_dialog.py` makes both).
"""

from __future__ import annotations

from typing import Any

from ..agents import Scrubber
from ..core import Thread
from .declarations import copilot
from .view import Conversation, Item, approval_request

SHOWN_LIMIT = 2_000  # characters of a call's result or question a card shows, and of its arguments once decided
NAME_LIMIT = 100  # characters of a tool's name (from the agent) a card shows
Card = dict[str, Any]  # one call's card, as the task panel gets it (title, status, arguments, result...)
WAITING = ("awaiting_approval", "awaiting_input")  # a card's statuses while its call waits for the person
# The chat's statuses of a call not yet run (its arguments stream, or it is about to run) are the panel's "running".
_RUNNING = {"streaming": "running", "pending": "running"}


def task_cards(
    task_id: str,
    thread: Thread,
    conversation: Conversation,
    items: list[Item],
    *,
    everything: bool,
    problems: dict[str, str],
    scrubber: Scrubber,
) -> list[Card]:
    """The cards of the tool calls among a task's items: all of them, or (not `everything`) those waiting for the
    person; `problems` holds, by item id, an edit of the person's that did not fit, said on its card."""
    cards = []
    for item in items:
        call_id = conversation.call_of(item["id"]) if item["k"] == "t" else None
        call = thread.tool_call(call_id) if call_id is not None else None
        if call is None:
            continue
        status: str = _RUNNING.get(item["s"]) or item["s"]
        if not everything and status not in WAITING:
            continue
        card = _card(f"{task_id}:{item['id']}", item, status, thread, conversation, scrubber)
        waiting = thread.awaiting.get(call.id)  # (None: decided since the items were made)
        if status == "awaiting_approval" and waiting is not None:
            tool, ui = copilot.tool(waiting.tool_name), copilot.tool_ui.get(waiting.tool_name)
            shown = approval_request(card["id"], waiting.digest, call, waiting.arguments, tool, ui)
            card |= {key: shown[key] for key in ("title", "sentence", "fields", "editable")}
            card["error"] = problems.get(item["id"], "")
        cards.append(scrubbed(card, scrubber))
    return cards


def _card(card_id: str, item: Item, status: str, thread: Thread, conversation: Conversation, scrubber: Scrubber) -> Card:
    def text(part: str, limit: int | None = SHOWN_LIMIT) -> str:
        whole = scrubber.scrub(conversation.text_of(f"{item['id']}.{part}", thread) or "")
        return whole if limit is None else _cut(whole, limit)

    name: str = item["n"]
    ui, tool = copilot.tool_ui.get(name), _cut(scrubber.scrub(name), NAME_LIMIT)
    return {
        "id": card_id,
        "tool": tool,
        "status": status,
        "title": (ui.title if ui is not None else "") or tool,
        # (all that Approve runs while it waits; nothing while its arguments stream)
        "arguments": "" if item["s"] == "streaming" else text("a", None if status in WAITING else SHOWN_LIMIT),
        "question": text("q") if status == "awaiting_input" else "",
        "result": text("r") if item["s"] not in ("streaming", "pending", "running", *WAITING) else "",
        "digest": item.get("d", ""),
        "sentence": "",
        "fields": [],
        "editable": False,
        "error": "",
    }


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def scrubbed(value: Any, scrubber: Scrubber) -> Any:
    """Every string in a value (keys too, at any depth) with its secrets scrubbed (a card's texts were scrubbed before
    they were cut; this pass is for the names and fields the agent sent)."""
    if isinstance(value, str):
        return scrubber.scrub(value)
    if isinstance(value, dict):
        return {scrubbed(key, scrubber): scrubbed(item, scrubber) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [scrubbed(item, scrubber) for item in value]
    return value
