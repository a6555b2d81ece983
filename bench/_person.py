"""A simulated person at the copilot: the demo flow over Reflex's own websocket, timed as they would feel it.

The person opens the page (a new tab: its own token, so its own session and anonymous owner), and
once hydrated the copilot asks for its conversation (`CopilotState.open`, as the panel does). Then
the demo flow, each message ending in the person's marker so that what is theirs can be told apart:
"hello", "show orders from Berlin", "refund order 1042" (approved in the dialog, with its fields as
shown), "hello". Before each message and before Approve the person waits a moment (PAUSE: 0–0.2 s).

Per turn: Enter → the first streamed piece of anything (a reply's words, a card's arguments);
Enter → the end of the run that answers (LiveState.running back to false); for the approval,
Approve → the card's result handed over, and Approve → the end of the run.

At the end, `check_texts` asks for the whole of every reply the person received in pieces, as a
reloaded page would, so that the Witness can tell what was lost.
"""

from __future__ import annotations

import asyncio
import random
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from reflex_base.utils.format import format_event_handler

from copilot_ui.state import CopilotState

from ._reflex_socket import ReflexSocket, Update, form
from ._witness import Witness


@dataclass(frozen=True)
class Step:
    """One message of the flow; `approve`: it asks for an approval, which the person gives, and the approved tool's
    result then says `result` (a tool that failed, on an empty dashboard say, fails the flow)."""

    text: str
    approve: bool = False
    result: str = ""


FLOW = (
    Step("hello"),
    Step("show orders from Berlin"),
    Step("refund order 1042", approve=True, result="Refunded order #1042"),
    Step("hello"),
)
HELLO = (Step("hello"),) * 4  # a flow the anchor app (a plain Reflex chat, no tools) can do too
# Seconds a person waits before each message and before Approve: they act as soon as they can, as in the issue's
# measurement (so that the figures compare with it). With reading pauses of 0.5–1.5 s and arrivals over 5 s instead,
# N = 50 on one worker read p95 first piece 90–375 ms where this pace reads 850 ms.
PAUSE = (0.0, 0.2)
TURN_TIMEOUT = 180.0  # seconds for one run to end: a saturated server is slow, not stuck
CHECK_TIMEOUT = 60.0  # seconds for the whole replies to come, once every flow is done
AGENT = "default"  # the agent the demo page's copilot names

OPEN = format_event_handler(CopilotState.open)
SEND = format_event_handler(CopilotState.send)
APPROVE = format_event_handler(CopilotState.approve_form)
NEED_TEXTS = format_event_handler(CopilotState.need_texts)


def new_run() -> str:
    """A prefix for one run's markers: letters that spell no word the demo model answers to."""
    return "".join(random.SystemRandom().choices("bcdfghjkmnpqrstvwxz", k=6))


def marker(run: str, name: str | int) -> str:
    """A person's marker: `<run>-<number>`, of one length for every number (no marker begins another)."""
    return f"{run}-{name:03d}" if isinstance(name, int) else f"{run}-{name}"


class FlowFailed(RuntimeError):
    """The person did not get what the flow promised in time."""


@dataclass
class Turn:
    """How one turn felt, in seconds (None: it never came)."""

    message: str
    first_piece: float | None  # Enter → the first streamed piece
    done: float | None  # Enter → the end of the run (for an approval: Approve → the end of the run after it)
    approve_to_result: float | None = None
    first_shown: float | None = None  # Enter → that piece on the page: it and the item that shows it both came


@dataclass
class Person:
    """One person in their own tab, over a websocket of their own."""

    url: str
    marker: str
    rng: random.Random
    witness: Witness = field(init=False)
    turns: list[Turn] = field(default_factory=list)
    problem: str = ""  # why the flow did not complete ("" when it did)

    def __post_init__(self) -> None:
        self.witness = Witness(marker=self.marker, token=str(uuid.uuid4()))
        self._tab = Connection(self.witness.read)

    @property
    def replies(self) -> list[str]:
        """The replies the person received in pieces, as they stand."""
        return [self.witness.texts[tid].text for tid in self.witness.streamed_messages()]

    async def connect(self) -> None:
        """Open the page: connect, hydrate, and let the copilot open its conversation."""
        await self._tab.open(self.url, self.witness.token)
        await self._tab.until(lambda: self.witness.hydrated, "the page hydrated")
        await self._tab.emit(OPEN, {"page_agent": AGENT})

    async def do_flow(self, steps: tuple[Step, ...] = FLOW) -> None:
        """The flow, step by step; a step that does not come through ends it (`problem` says which)."""
        try:
            for step in steps:
                await self._pause()
                self.turns.append(await (self._approved(step) if step.approve else self._said(step)))
        except FlowFailed as failed:
            self.problem = str(failed)

    async def check_texts(self) -> None:
        """Ask for the whole of every reply received in pieces, as a reloaded page would, and wait for them."""
        tids = self.witness.streamed_messages()
        self.witness.handed_over = {}
        if not tids:
            return
        await self._tab.emit(NEED_TEXTS, {"tids": tids})
        try:
            await self._tab.until(lambda: set(tids) <= set(self.witness.handed_over or {}), "the whole replies", CHECK_TIMEOUT)
        except FlowFailed:
            pass  # what did not come counts as lost

    async def close(self) -> None:
        await self._tab.close()

    # The steps

    async def _said(self, step: Step) -> Turn:
        since = await self._send(step.text)
        ended = await self._run_end(since, f"the reply to {step.text!r}")
        if not self.witness.replies_since(since):
            raise FlowFailed(f"no reply to {step.text!r} came in pieces")
        first, shown = self.witness.first_piece_since(since), self.witness.first_shown_since(since)
        return Turn(step.text, _after(since, first), ended - since, first_shown=_after(since, shown))

    async def _approved(self, step: Step) -> Turn:
        since = await self._send(step.text)
        await self._run_end(since, f"the approval asked for by {step.text!r}")
        approval = self.witness.approval
        await self._tab.until(lambda: bool(approval.get("open") and approval.get("item")), f"the dialog for {step.text!r}")
        first, shown = self.witness.first_piece_since(since), self.witness.first_shown_since(since)
        await self._pause()
        item, digest = str(approval["item"]), str(approval.get("digest") or "")
        approved = time.perf_counter()
        await self._tab.emit(APPROVE, {"form": form(("item", item), ("digest", digest), *_shown_fields(approval))})
        await self._tab.until(lambda: self.witness.whole_since(f"{item}.r", approved) is not None, f"the result of {step.text!r}")
        result = self.witness.whole_since(f"{item}.r", approved)
        said = self.witness.texts[f"{item}.r"].text if f"{item}.r" in self.witness.texts else ""
        if step.result not in said:
            raise FlowFailed(f"approving {step.text!r} gave {said[:160]!r}, not {step.result!r}")
        ended = await self._run_end(approved, f"the reply after approving {step.text!r}")
        if not self.witness.replies_since(approved):
            raise FlowFailed(f"no reply after approving {step.text!r} came in pieces")
        return Turn(step.text, _after(since, first), ended - approved, _after(approved, result), _after(since, shown))

    async def _send(self, text: str) -> float:
        """Write the message (with the person's marker) and press Enter; when it was sent."""
        since = time.perf_counter()
        await self._tab.emit(SEND, {"form": form(("agent", AGENT), ("message", f"{text} ({self.marker})"))})
        return since

    async def _run_end(self, since: float, what: str) -> float:
        """When the run that answers what was sent at `since` ended."""
        await self._tab.until(lambda: self.witness.run_ended_since(since) is not None, what)
        ended = self.witness.run_ended_since(since)
        assert ended is not None
        return ended

    async def _pause(self) -> None:
        await asyncio.sleep(self.rng.uniform(*PAUSE))


class Connection:
    """A person's tab over Reflex's websocket: each update goes to `take`, and whoever waits on one is woken."""

    def __init__(self, take: Callable[[Update], None]) -> None:
        self._take = take
        self._socket: ReflexSocket | None = None
        self._reader: asyncio.Task[None] | None = None
        self._changed = asyncio.Condition()

    async def open(self, url: str, token: str) -> None:
        self._socket = ReflexSocket(url, token)
        await self._socket.open()
        self._reader = asyncio.create_task(self._read(self._socket))

    async def emit(self, name: str, payload: dict[str, Any]) -> None:
        assert self._socket is not None
        await self._socket.emit(name, payload)

    async def until(self, condition: Callable[[], bool], what: str, seconds: float = TURN_TIMEOUT) -> None:
        """Until `condition` holds, checked at each update; FlowFailed if the connection closes first or `seconds`
        pass."""
        reader = self._reader

        def met() -> bool:
            if reader is not None and reader.done():
                raise FlowFailed(f"the connection closed while waiting for {what}")
            return condition()

        try:
            async with asyncio.timeout(seconds), self._changed:
                await self._changed.wait_for(met)
        except TimeoutError:
            raise FlowFailed(f"{what} did not come within {seconds:.0f} s") from None

    async def close(self) -> None:
        if self._socket is not None:
            await self._socket.close()
            self._socket = None
        if self._reader is not None:
            self._reader.cancel()
            await asyncio.gather(self._reader, return_exceptions=True)
            self._reader = None

    async def _read(self, socket: ReflexSocket) -> None:
        try:
            async for update in socket.updates():
                self._take(update)
                async with self._changed:
                    self._changed.notify_all()
        finally:
            async with self._changed:
                self._changed.notify_all()


def _shown_fields(approval: dict[str, Any]) -> list[tuple[str, str]]:
    """The dialog's editable fields as its form submits them, left as shown (a checkbox only when checked)."""
    entries = []
    for shown in approval.get("fields") or ():
        if not isinstance(shown, dict) or not shown.get("editable"):
            continue
        if shown.get("kind") == "boolean":
            if shown.get("value") == "true":
                entries.append((str(shown["key"]), "on"))
        else:
            entries.append((str(shown["key"]), str(shown.get("value", ""))))
    return entries


def _after(since: float, then: float | None) -> float | None:
    return None if then is None else then - since
