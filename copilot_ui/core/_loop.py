"""The run loop: the heart of copilot_ui, as a facade over its phases.

Send the thread, the tools and the context to the agent; apply what streams back; run the tools
whose calls have no result; let the page commit what they changed; run the agent again; until it
is done. Each public method is one thing a person or the app does (write, run a tool from a
button, retry, decide, stop); each becomes a turn of the thread (_turn.py), and only one turn
works on a thread at a time (_claims.py).

    _turn.py        the turn, top to bottom: open, steps, close; one run of the agent (run_agent)
    _batch.py       settle the calls without a result: prepare each once (look up, repair, validate, hooks,
                    approval policy) → run or answer → verdict
    _execute.py     run a ready call; whatever happens, exactly one result
    _interrupts.py  the agent's own questions, shown, decided, resumed
    _closing.py     answer every open call for a reason; a failed run; the end of a turn
    _press.py       a tool a person ran from a button
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from ag_ui.core import Context

from .._checks import keywords_checked, whole_number
from ..agents import Agent, Scrubber, environment_secrets, scrubber_for
from ..errors import ThreadBusy
from ..protocol import new_id
from ..protocol._json import JSON, JSONObject
from ._attachments import Attachment, AttachmentBytes, attachments_of
from ._claims import Claim, claims
from ._context import Session, StateAccess
from ._decisions import Decision
from ._events import Event
from ._hooks import Hooks
from ._outcome import TurnOutcome
from ._press import FollowUp, Press
from ._thread import QueuedMessage, Thread
from ._toolbox import Toolbox
from ._turn import Emit, Turn, deliver

ReadContext = Callable[[], "Awaitable[list[Context]] | list[Context]"]


@keywords_checked("cui.LoopLimits")
@dataclass(frozen=True, kw_only=True)
class LoopLimits:
    """Bounds that keep an agent from spinning forever."""

    max_follow_ups: int = 25
    """Agent runs after the first in one turn."""
    max_same_call: int = 3
    """The same call this many times in a row gets a warning result; once more stops the turn."""
    max_parallel: int | None = None
    """Tool handlers running at once (None: no bound)."""

    def __post_init__(self) -> None:
        where = "cui.LoopLimits"
        whole_number(
            where, "max_follow_ups", self.max_follow_ups, 0, "it takes the agent runs after the first in one turn (0 or more)"
        )
        whole_number(
            where, "max_same_call", self.max_same_call, 2, "it takes how often the same call may come in a row (2 or more)"
        )
        if self.max_parallel is not None:
            whole_number(
                where, "max_parallel", self.max_parallel, 1, "it takes the tools that may run at once (1 or more), or None"
            )


class RunLoop:
    """Drives one agent, its tools and the page through the turns of a thread."""

    def __init__(
        self,
        agent: Agent,
        toolbox: Toolbox | None = None,
        *,
        hooks: Hooks | None = None,
        context: ReadContext | None = None,
        commit: Callable[[], Awaitable[None]] | None = None,
        state_access: StateAccess | None = None,
        session: Session | None = None,
        emit: Emit | None = None,
        ask_person: bool = False,
        limits: LoopLimits | None = None,
        forwarded_props: JSON = None,
        attachment_bytes: AttachmentBytes | None = None,
        scrubber: Scrubber | None = None,
    ) -> None:
        self.agent = agent
        self.toolbox = toolbox if toolbox is not None else Toolbox()
        self.hooks = hooks or Hooks()
        self.context = context
        self.commit = commit
        self.state_access = state_access
        self.session = session or Session()
        self.emit = emit
        self.ask_person = ask_person
        self.limits = limits or LoopLimits()
        self.forwarded_props = forwarded_props
        self.attachment_bytes = attachment_bytes  # where the files the person attached are read when the agent runs
        # a tool's result or error may quote a secret (a key in a URL): scrubbed before card, store and agent get it
        self.scrubber = scrubber if scrubber is not None else scrubber_for((*environment_secrets(), *agent.secrets()))
        self._turn: Turn | None = None

    @property
    def running(self) -> bool:
        """This loop is running a thread now."""
        return self._turn is not None

    async def send(
        self,
        thread: Thread,
        text: str,
        message_id: str | None = None,
        *,
        claim: Claim | None = None,
        attachments: tuple[Attachment, ...] = (),
    ) -> TurnOutcome | None:
        """The person writes: a new turn, run to its outcome.

        While a turn works on the thread (this loop's or another's), the message is queued instead
        and None is returned at once: it goes with the agent's next run, or is handed back in
        TurnEnded.returned if that turn is stopped. Calls that wait for the person are answered
        "not run" (skipped): the new message is what they said instead.
        """
        message = QueuedMessage(message_id or new_id("msg-"), text, attachments)
        if claim is None:
            while (holder := claims.holder(thread.id)) is not None:
                if (turn := _accepting_turn(thread)) is not None:
                    turn.queue(message)
                    return None
                await holder.wait_released()  # a turn ending, or one about to start: this one follows
        return await self._run(thread, claim, message=message)

    def accepting(self, thread: Thread) -> bool:
        """A turn works on the thread and still takes messages and decisions (it is not winding down)."""
        return _accepting_turn(thread) is not None

    def queue(self, thread: Thread, text: str, message_id: str | None = None, attachments: tuple[Attachment, ...] = ()) -> bool:
        """Queue a message on the turn working on the thread, at once (no await); False when none takes it now.

        For a caller that must not wait (a click handler holding a lock): on False, send() it later.
        """
        turn = _accepting_turn(thread)
        if turn is None:
            return False
        turn.queue(QueuedMessage(message_id or new_id("msg-"), text, attachments))
        return True

    async def resume(self, thread: Thread, *, claim: Claim | None = None) -> TurnOutcome:
        """Go on with the thread as it is (decisions recorded, results in) until the agent is done, a person must
        decide, or the run stops.

        Raises ThreadBusy when another turn holds the thread (pass `claim` to use one taken before).
        """
        return await self._run(thread, claim)

    async def run_tool(
        self,
        thread: Thread,
        name: str,
        arguments: JSONObject | None = None,
        follow_up: FollowUp = False,
        *,
        claim: Claim | None = None,
    ) -> str:
        """Run a tool from code (a button the person pressed): recorded as an assistant tool call and its result.

        follow_up: False (the agent is not asked), True or "generate" (the agent runs and may comment),
        or a message from the person that goes with the run. A Stop ends it all: no follow-up after.
        Returns the result text.
        """
        if self.toolbox.find(name, self.agent.agent_id) is None:
            raise KeyError(f"no tool {name!r} (tools: {', '.join(self.toolbox.names(self.agent.agent_id, self.session))})")
        press = Press(name, dict(arguments or {}), follow_up)
        await self._run(thread, claim, press=press)
        result = thread.result_of(press.call_id)
        return result.content if result is not None and isinstance(result.content, str) else ""

    async def retry(self, thread: Thread, *, claim: Claim | None = None) -> TurnOutcome:
        """Run the agent again after its last run failed, on the same messages (what the failed run added goes); after
        a run the server's stopping cut off (`Thread.interrupted_after`), the agent goes on from what it had said.

        Raises RuntimeError when the thread's last agent run did not fail: there is nothing to retry.
        """
        if thread.turn.failed is None:
            raise RuntimeError(f"nothing to retry: the last agent run of thread {thread.id!r} did not fail")
        return await self._run(thread, claim, retry=True)

    async def regenerate(self, thread: Thread, *, claim: Claim | None = None) -> TurnOutcome:
        """Answer the person's last message again: everything after it goes, and the agent runs anew.

        Raises RuntimeError when the thread has no message of the person's.
        """
        self._check_idle()
        claim, own = _held(thread, claim)
        try:
            messages = thread.messages
            last = next((i for i in range(len(messages) - 1, -1, -1) if messages[i].role == "user"), None)
            if last is None:
                raise RuntimeError(f"nothing to regenerate: thread {thread.id!r} has no message from the person")
            if last + 1 < len(messages):
                thread.remove_messages_from(messages[last + 1].id)
            thread.start_turn()
            return await self._run(thread, claim)
        finally:
            if own:
                claim.release()

    async def edit(
        self, thread: Thread, message_id: str, text: str, new_message_id: str | None = None, *, claim: Claim | None = None
    ) -> TurnOutcome:
        """The person rewrote one of their messages: it and everything after it go, the new text is sent in its place.

        Raises KeyError when the thread has no such message of the person's.
        """
        message = thread.message(message_id)
        if message is None or message.role != "user":
            raise KeyError(f"thread {thread.id!r} has no message {message_id!r} of the person's to edit")
        self._check_idle()
        claim, own = _held(thread, claim)
        try:
            attachments = tuple(attachments_of(message))  # the edited message keeps its files
            thread.remove_messages_from(message_id)
            edited = QueuedMessage(new_message_id or new_id("msg-"), text, attachments)
            return await self._run(thread, claim, message=edited)
        finally:
            if own:
                claim.release()

    def decide(self, thread: Thread, key: str, decision: Decision, digest: str) -> bool:
        """A person's decision on what waits under `key`, with the digest it was shown with (AwaitingPerson.digest).

        Returns False (and logs a warning) when it does not count: nothing waits under that key,
        the digest is another, the kind does not fit, or it was decided already. A turn working on
        the thread acts on it at once; otherwise the next turn does.
        """
        turn = _running_turn(thread)
        target = turn.thread if turn is not None else thread  # the thread object being run is the record
        if not target.decide(key, decision, digest):
            return False
        if turn is not None:
            turn.wake.set()
        return True

    def abort(self) -> None:
        """Stop now: the agent's stream closes, running handlers are cancelled, every call gets a result, no follow-up."""
        if self._turn is not None:
            self._turn.abort()

    async def _run(
        self,
        thread: Thread,
        claim: Claim | None,
        *,
        message: QueuedMessage | None = None,
        press: Press | None = None,
        retry: bool = False,
    ) -> TurnOutcome:
        """One turn under a claim: taken here before any await, unless the caller brought one (and releases it)."""
        self._check_idle()
        claim, own = _held(thread, claim)
        turn = self._turn = claim.turn = Turn(self, thread, press=press)
        try:
            return await turn.run(message=message, retry=retry)
        finally:
            claim.turn = self._turn = None
            if own:
                claim.release()

    def _check_idle(self) -> None:
        """A loop runs one thread at a time: checked before anything of a thread changes."""
        if self._turn is not None:
            raise RuntimeError("this loop is already running a thread; send() queues a message instead")

    async def _notify(self, event: Event) -> None:
        await deliver(self.emit, event)


def _running_turn(thread: Thread) -> Turn | None:
    """The turn working on the thread now, if any (in this process)."""
    holder = claims.holder(thread.id)
    return holder.turn if holder is not None else None


def _accepting_turn(thread: Thread) -> Turn | None:
    """The turn working on the thread, if it still takes messages and decisions."""
    turn = _running_turn(thread)
    return turn if turn is not None and turn.accepting else None


def _held(thread: Thread, claim: Claim | None) -> tuple[Claim, bool]:
    """The claim to run under, and whether it was taken here."""
    if claim is None:
        taken = claims.claim(thread.id)
        if taken is None:
            raise ThreadBusy(thread.id)
        return taken, True
    if claim.thread_id != thread.id:
        raise ValueError(f"the claim is on thread {claim.thread_id!r}, not on {thread.id!r}")
    if claim.released or claims.holder(thread.id) is not claim:
        raise ValueError(f"the claim on thread {thread.id!r} was released")
    if claim.turn is not None:
        raise ThreadBusy(thread.id)
    return claim, False
