"""The run loop's events (the agent's AG-UI events as they came, and the loop's own) into what the person sees: each
event changes the view's buffers (`_outgoing`), which go to the tab at a bounded pace; the agent's state goes to the
app's bound Reflex states (`_agent_state`).

A turn's sink is made with the tab's `show` (where a flush writes what the tab shows besides its
texts), its `send` (where the texts go, as browser events) and the conversation's view; the run loop emits its
events into `emit`, which never blocks.
"""

from __future__ import annotations

import time

from ag_ui.core import (
    ActivityDeltaEvent,
    ActivityMessage,
    ActivitySnapshotEvent,
    BaseEvent,
    EventType,
    ReasoningMessageContentEvent,
    ReasoningMessageEndEvent,
    ReasoningMessageStartEvent,
    StateDeltaEvent,
    StateSnapshotEvent,
    TextMessageContentEvent,
    TextMessageEndEvent,
    TextMessageStartEvent,
    ToolCallArgsEvent,
    ToolCallEndEvent,
    ToolCallResultEvent,
    ToolCallStartEvent,
)

from ...agents import Scrubber
from ...core import (
    AgentRunFinished,
    AgentRunStarted,
    AwaitingPerson,
    ErrorOccurred,
    Event,
    Hooks,
    Thread,
    ToolExecutionEnded,
    ToolExecutionStarted,
    ToolProgress,
    TurnEnded,
    TurnStarted,
    UserMessageAdded,
    ended_by_agent,
)
from ..declarations import SharedStates, copilot
from ..view import (
    TYPE_LIMIT,
    Conversation,
    LiveMarks,
    activity_text,
    arguments_text,
    drawn_activity,
    drawn_by_app,
    pretty_json,
    question_of,
    result_for_person,
)
from ._agent_state import Accepted, AgentStateMirror
from ._dev_console import DevConsole
from ._outgoing import MIN_INTERVAL, Outgoing, Send, Show, ViewUpdate
from ._silence import Silence

SUGGESTION_EVENTS = ("suggestions", "copilot_ui.suggestions")  # CUSTOM events whose value lists what to ask next
SUGGESTIONS, SUGGESTION_CHARS = 4, 120


class ViewSink(Outgoing):
    """Makes the events of a turn's loop into what its tab shows."""

    def __init__(
        self,
        show: Show,
        thread: Thread,
        conversation: Conversation,
        *,
        scrubber: Scrubber,
        send: Send | None = None,
        shared: SharedStates | None = None,
        interval: float = MIN_INTERVAL,
    ) -> None:
        super().__init__(show, thread, conversation, scrubber=scrubber, send=send, interval=interval)
        self.marks = LiveMarks()
        self._drawn: set[str] = set()  # call ids whose arguments stream into an app's renderer
        self.agent_state = AgentStateMirror(shared, thread, conversation)
        self._shared_values: Accepted = {}  # fields of the app's states to write at the next flush
        self._suggestions: list[str] = []  # what the agent proposed to ask next, shown once the turn is over
        self._running = True
        self._silence = Silence(self._say_waiting)
        self._run_id = ""  # the agent's run now (its replies are told to the app with their feedback)
        self._thinking_since: float | None = None
        self.dev = DevConsole(conversation.key + "dev", self._append, scrubber)

    # Events

    def emit(self, event: Event) -> None:
        """Take one event of the loop (never blocks); a flush follows within the interval."""
        handler = _HANDLERS.get(type(event))
        if handler is not None:
            handler(self, event)
        elif isinstance(event, BaseEvent):
            self._agent_event(event)
        else:
            return
        self._schedule()

    def queue_user_message(self, message_id: str, text: str) -> None:
        """The person wrote during the run: shown at once, marked queued, until it goes to the agent."""
        self.marks.queued.append((message_id, text))
        self._whole(self.conversation.message_item(message_id, "user"), text)
        self._items_changed()
        self._schedule()

    def replacing_from(self, message_id: str) -> None:
        """This message and what follows are about to be replaced (Regenerate, an edit): their notes go now."""
        self.conversation.forget_notes_from(self.thread, message_id)
        self._items_changed()

    def retrying(self) -> None:
        """The person pressed Retry: the error that offered it goes."""
        self.conversation.forget_retried()
        self._items_changed()

    def _turn_started(self, _event: TurnStarted) -> None:
        self._set_status(copilot.labels.thinking)

    def _user_message(self, event: UserMessageAdded) -> None:
        self.marks.queued = [queued for queued in self.marks.queued if queued[0] != event.message_id]
        self.agent_state.settle()  # the person moved on: what the agent wrote stands
        self._whole(self.conversation.message_item(event.message_id, "user"), event.text)
        self._items_changed()

    def _run_started(self, event: AgentRunStarted) -> None:
        self._run_id = event.run_id
        self.dev.began("run:" + event.run_id, f"run {event.follow_up + 1} started")
        self.conversation.clear_retry()
        self._set_status(copilot.labels.thinking)
        self._silence.run_opened()

    def _run_finished(self, event: AgentRunFinished) -> None:
        self._silence.run_closed()
        self.dev.ended("run:" + event.run_id, f"run finished ({event.outcome})", "after")

    def _agent_spoke(self) -> None:
        self._silence.spoke()

    def _agent_event(self, event: BaseEvent) -> None:
        """An event of the agent's with no handler of its own (activities, snapshots, CUSTOM, RAW, steps)."""
        self._agent_spoke()
        if isinstance(event, (ActivitySnapshotEvent, ActivityDeltaEvent)):
            self._activity_changed(event.message_id)
        elif event.type == EventType.MESSAGES_SNAPSHOT:
            self._items_changed()  # the agent replaced the conversation: show it now, not at the next change
        elif getattr(event, "name", None) in SUGGESTION_EVENTS and isinstance(value := getattr(event, "value", None), list):
            offered = [str(text).strip() for text in value if isinstance(text, str) and text.strip()]
            self._suggestions = [self._scrubber.scrub(text)[:SUGGESTION_CHARS] for text in offered[:SUGGESTIONS]]

    def _message_started(self, event: TextMessageStartEvent) -> None:
        self._agent_spoke()
        self.marks.streaming.add(event.message_id)
        self._begin_stream(self.conversation.message_item(event.message_id, "assistant"))
        if self._run_id:
            self.conversation.runs[event.message_id] = self._run_id  # told to the app with feedback on this reply
        self._items_changed(can_wait=True)  # the new reply goes with its first words: one frame of items, not two

    def _text_delta(self, event: TextMessageContentEvent) -> None:
        self._agent_spoke()
        self._append(self.conversation.message_item(event.message_id, "assistant"), event.delta)
        self._set_status("")

    def _message_ended(self, event: TextMessageEndEvent) -> None:
        self._agent_spoke()
        self.marks.streaming.discard(event.message_id)
        self._end_stream(self.conversation.message_item(event.message_id, "assistant"))
        self._items_changed(can_wait=True)  # (the run mostly ends at once: its end shows in the same frame of items)

    def _reasoning_started(self, event: ReasoningMessageStartEvent) -> None:
        self._agent_spoke()
        self.marks.streaming.add(event.message_id)
        self._begin_stream(self.conversation.message_item(event.message_id, "reasoning"))
        self._thinking_since = time.monotonic()
        self._items_changed(can_wait=True)  # like a reply: the reasoning goes with its first words

    def _reasoning_delta(self, event: ReasoningMessageContentEvent) -> None:
        self._agent_spoke()
        self._append(self.conversation.message_item(event.message_id, "reasoning"), event.delta)
        self._set_status(copilot.labels.thinking)

    def _reasoning_ended(self, event: ReasoningMessageEndEvent) -> None:
        self._agent_spoke()
        self.marks.streaming.discard(event.message_id)
        if self._thinking_since is not None:
            self.conversation.thought[event.message_id] = time.monotonic() - self._thinking_since
        self._end_stream(self.conversation.message_item(event.message_id, "reasoning"))
        self._items_changed(can_wait=True)  # (the reply mostly starts at once: the reasoning's end shows with its words)

    def _tool_started(self, event: ToolCallStartEvent) -> None:
        self._agent_spoke()
        copilot.tool_called(event.tool_call_name)
        self.marks.arguments.add(event.tool_call_id)
        self._begin_stream(self.conversation.call_item(event.tool_call_id) + ".a")
        if drawn_by_app(event.tool_call_name, self.conversation.rendered):
            self._drawn.add(event.tool_call_id)
        if event.tool_call_id in self.thread.predicting:
            self.agent_state.prediction_began(event.tool_call_id)
        self._items_changed()

    def _tool_arguments(self, event: ToolCallArgsEvent) -> None:
        self._agent_spoke()
        self._append(self.conversation.call_item(event.tool_call_id) + ".a", event.delta)
        if event.tool_call_id in self._drawn:
            self._items_changed()  # the app's renderer draws the arguments so far; the default card needs no item change
        if event.tool_call_id in self.thread.predicting:
            self._write_shared(self.agent_state.predicted(event.tool_call_id))

    def _tool_ended(self, event: ToolCallEndEvent) -> None:
        self._agent_spoke()
        self.marks.arguments.discard(event.tool_call_id)
        self._drawn.discard(event.tool_call_id)
        call = self.thread.tool_call(event.tool_call_id)
        if call is not None:
            self._whole(self.conversation.call_item(event.tool_call_id) + ".a", arguments_text(call))
        if event.tool_call_id in self.thread.predicting:
            self._write_shared(self.agent_state.predicted(event.tool_call_id))
        self._items_changed()

    def _execution_started(self, event: ToolExecutionStarted) -> None:
        self.dev.began("tool:" + event.call_id)
        self.marks.running.add(event.call_id)
        call = self.thread.tool_call(event.call_id)
        if call is not None and pretty_json(event.arguments) != arguments_text(call):  # prepared, rewritten or edited
            self.conversation.ran_with[event.call_id] = dict(event.arguments)  # kept: the card shows them after a reload
        self._whole(self.conversation.call_item(event.call_id) + ".a", pretty_json(event.arguments))
        self._set_status(copilot.labels.said("running_tool", tool=event.tool_name))
        self._items_changed()

    def _progress(self, event: ToolProgress) -> None:
        share = f"{round(event.fraction * 100)}%" if event.fraction is not None else ""
        self.marks.progress[event.call_id] = " ".join(part for part in (share, event.message) if part)
        self._items_changed()

    def _awaiting(self, event: AwaitingPerson) -> None:
        call = self.thread.tool_call(event.call_id)
        if call is not None and pretty_json(event.arguments) != arguments_text(call):  # prepared or rewritten: shown as they run
            self._whole(self.conversation.call_item(event.call_id) + ".a", pretty_json(event.arguments))
        question = question_of(self.thread, call) if call is not None else event.message
        self._whole(self.conversation.call_item(event.call_id) + ".q", question)
        self._set_status("")
        self._items_changed()

    def _execution_ended(self, event: ToolExecutionEnded) -> None:
        self.dev.ended("tool:" + event.call_id, f"tool {event.tool_name} {event.status}", "in")
        self.marks.running.discard(event.call_id)
        self.marks.arguments.discard(event.call_id)
        self.marks.progress.pop(event.call_id, None)
        status = "error" if event.status == "complete" and event.is_error else event.status
        self.conversation.outcomes[event.call_id] = status
        self._whole(self.conversation.call_item(event.call_id) + ".r", result_for_person(event.result))
        self._write_shared(self.agent_state.decided(event))
        if not self.marks.running:
            self._set_status(copilot.labels.thinking if self._silence.run_open or status == "complete" else "")
        self._items_changed()

    def _error(self, event: ErrorOccurred) -> None:
        note = self.conversation.add_note("error", event.message, self.thread.last_message_id(), retry=True)
        self._whole(note.id, event.message)
        self._silence.run_closed()
        self._items_changed()

    def _turn_ended(self, event: TurnEnded) -> None:
        self._silence.run_closed()
        self._running = False
        self._set_status("")
        self.marks.queued = []
        self.returned = [queued.text for queued in getattr(event, "returned", ())]
        if event.status in ("aborted", "stopped"):  # a turn limit already shows as an error
            labels = copilot.labels
            text = labels.stopped if event.status == "aborted" else labels.said("stopped_because", reason=event.message)
            note = self.conversation.add_note("notice", text, self.thread.last_message_id())
            self._whole(note.id, text)
        self._items_changed()

    def _state_changed(self, _event: StateSnapshotEvent | StateDeltaEvent) -> None:
        self._agent_spoke()
        self._write_shared(self.agent_state.changed())

    def _agent_result(self, event: ToolCallResultEvent) -> None:
        """A result of the agent's own tool: its card shows it as a page tool's card shows its result."""
        self._agent_spoke()
        self._execution_ended(ended_by_agent(event, self.thread))

    def _activity_changed(self, message_id: str) -> None:
        activity = self.thread.message(message_id)
        if not isinstance(activity, ActivityMessage):
            return
        new = "m:" + message_id not in self.conversation.ids
        item_id = self.conversation.message_item(message_id, "activity")
        drawn = drawn_activity(activity.activity_type[:TYPE_LIMIT], self.conversation.rendered)
        if not drawn:
            self._whole(item_id, activity_text(activity))  # the default card shows the content as text
        if drawn or new:
            self._items_changed()  # an app's card draws the content from its item

    def _write_shared(self, accepted: Accepted | None) -> None:
        for state_type, values in (accepted or {}).items():
            if values:
                self._shared_values.setdefault(state_type, {}).update(values)
                self._urgent = True

    def shared_state_read(self) -> None:
        """The page's state was just read into the thread's (before a run): that is the state that fits now."""
        self.agent_state.read()

    # The dev console (when the app turns it on)

    def hooks(self, base: Hooks) -> Hooks:
        """The hooks of this turn's loop: the app's, and the dev console's when it is on."""
        return self.dev.hooks(base)

    @property
    def dev_tid(self) -> str:
        """The text id of this conversation's dev console."""
        return self.dev.tid

    # What a flush shows

    def _shown(self, items_changed: bool) -> ViewUpdate:
        items = self.conversation.items(self.thread, self.marks) if items_changed else None
        suggestions = self._suggestions if not self._running else None
        return ViewUpdate(self.thread, self.conversation, items, self._status, self._running, self._shared_values, suggestions)

    def _more_news(self) -> bool:
        return bool(self._shared_values)

    def _cleared(self) -> None:
        self._shared_values = {}

    def finish(self) -> None:
        """The turn is over, however it ended: nothing streams or runs any more."""
        self._silence.run_closed()
        self._running = False
        self._set_status("")
        for message_id in list(self.marks.streaming):
            self._end_stream(self.conversation.message_item(message_id, "assistant"))
        self.marks.streaming.clear()
        self.marks.arguments.clear()
        self.marks.running.clear()
        self.marks.progress.clear()
        self._items_changed()

    async def close(self) -> None:
        """The turn is over: send what is left."""
        self._silence.stop()
        await super().close()

    def _say_waiting(self, seconds: int) -> None:
        if not self.marks.running:  # a running tool has a status of its own
            self._set_status(copilot.labels.said("waiting", seconds=seconds))
            self._schedule()


_HANDLERS = {
    TurnStarted: ViewSink._turn_started,
    UserMessageAdded: ViewSink._user_message,
    AgentRunStarted: ViewSink._run_started,
    AgentRunFinished: ViewSink._run_finished,
    TextMessageStartEvent: ViewSink._message_started,
    TextMessageContentEvent: ViewSink._text_delta,
    TextMessageEndEvent: ViewSink._message_ended,
    ReasoningMessageStartEvent: ViewSink._reasoning_started,
    ReasoningMessageContentEvent: ViewSink._reasoning_delta,
    ReasoningMessageEndEvent: ViewSink._reasoning_ended,
    ToolCallStartEvent: ViewSink._tool_started,
    ToolCallArgsEvent: ViewSink._tool_arguments,
    ToolCallEndEvent: ViewSink._tool_ended,
    ToolExecutionStarted: ViewSink._execution_started,
    ToolProgress: ViewSink._progress,
    AwaitingPerson: ViewSink._awaiting,
    ToolExecutionEnded: ViewSink._execution_ended,
    ErrorOccurred: ViewSink._error,
    TurnEnded: ViewSink._turn_ended,
    ToolCallResultEvent: ViewSink._agent_result,
    StateSnapshotEvent: ViewSink._state_changed,
    StateDeltaEvent: ViewSink._state_changed,
}
