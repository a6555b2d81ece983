"""A simulated person at the anchor app (bench/anchor_app): a plain Reflex chat, over Reflex's own websocket, timed
as the copilot's people are (bench/_person.py).

The person opens the page (a new tab: its own token, so its own session), and once hydrated goes through the
flow: each message, ending in the person's marker, submitted as the page's form submits it. Per turn: Enter → the
first piece of the reply (the first change that gives the last message, the agent's, any text); Enter → the end
of the run (`running` back to false, the reply whole). A frame whose conversation holds a message without the
person's marker crossed from another person.
"""

from __future__ import annotations

import asyncio
import random
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

import reflex as rx

from ._person import PAUSE, Connection, FlowFailed, Step, Turn
from ._reflex_socket import Update, form, var_key

CHAT_STATE = "anchor_chat___anchor_chat____chat_state"  # how Reflex names anchor_chat.anchor_chat.ChatState
ROOT, HYDRATED = rx.State.get_full_name(), var_key(rx.State.is_hydrated)
MESSAGES, RUNNING = "messages_rx_state_", "running_rx_state_"  # its vars' keys in a delta
SEND = f"{ROOT}.{CHAT_STATE}.send"


@dataclass
class AnchorPerson:
    """One person in their own tab of the anchor app, over a websocket of their own."""

    url: str
    marker: str
    rng: random.Random
    turns: list[Turn] = field(default_factory=list)
    problem: str = ""  # why the flow did not complete ("" when it did)
    crossed: int = 0  # frames that held a message of another person's
    messages: list[dict[str, Any]] = field(default_factory=list)  # the conversation, as the page holds it
    replies: list[str] = field(default_factory=list)  # each whole reply

    def __post_init__(self) -> None:
        self._tab = Connection(self.read)
        self._hydrated = False
        self._first_text: float | None = None  # when the last message first had text (the agent's, streaming)
        self._ended: float | None = None  # when `running` last went back to false

    async def connect(self) -> None:
        await self._tab.open(self.url, str(uuid.uuid4()))
        await self._tab.until(lambda: self._hydrated, "the page hydrated")

    async def do_flow(self, steps: tuple[Step, ...]) -> None:
        """The flow, step by step (the anchor has no tools: each step is a message); a step that does not come
        through ends it (`problem` says which)."""
        try:
            for step in steps:
                await asyncio.sleep(self.rng.uniform(*PAUSE))
                self.turns.append(await self._said(step))
        except FlowFailed as failed:
            self.problem = str(failed)

    async def close(self) -> None:
        await self._tab.close()

    async def _said(self, step: Step) -> Turn:
        count = len(self.messages) + 2  # the message and the reply
        self._first_text = self._ended = None
        since = time.perf_counter()
        await self._tab.emit(SEND, {"form_data": form(("message", f"{step.text} ({self.marker})"))})
        what = f"the reply to {step.text!r}"
        await self._tab.until(lambda: self._ended is not None and len(self.messages) == count, what)
        assert self._ended is not None
        reply = str(self.messages[-1].get("content", ""))
        if not reply:
            raise FlowFailed(f"{what} was empty")
        self.replies.append(reply)
        first = None if self._first_text is None else self._first_text - since
        return Turn(step.text, first, self._ended - since, first_shown=first)  # (its text comes in its message)

    def read(self, update: Update) -> None:
        """Take one update from the backend, as the page applies it."""
        if update.delta.get(ROOT, {}).get(HYDRATED):
            self._hydrated = True
        chat = next((values for name, values in update.delta.items() if name.endswith(CHAT_STATE)), None)
        if chat is None:
            return
        if isinstance(messages := chat.get(MESSAGES), list):
            self.messages = messages
            theirs = [m for m in messages if isinstance(m, dict) and m.get("role") == "user"]
            if any(not str(m.get("content", "")).endswith(f"({self.marker})") for m in theirs):
                self.crossed += 1
            last = messages[-1] if messages else {}
            if self._first_text is None and isinstance(last, dict) and last.get("role") == "assistant" and last.get("content"):
                self._first_text = update.time
        if RUNNING in chat and not chat[RUNNING]:
            self._ended = update.time
