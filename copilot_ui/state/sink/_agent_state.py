"""The agent's state as the app's bound Reflex states show it: its snapshots and deltas, and predictive state updates.

A change of the agent's state is checked against the bound states' fields; one that does not fit
is refused whole, and the thread goes back to the last state that fitted. A predictive state update
(a CUSTOM PredictState) moves keys of the state while a tool's argument streams; such a change stays
provisional until the person decides: rejecting it (answering the app's confirm tool with
`{"accepted": false}`, or denying the call that wrote it) puts those keys back as they were, and
what they were is kept with the conversation until then.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from ...core import Thread, ToolExecutionEnded
from ..declarations import SharedStates
from ..view import Conversation

Accepted = dict[type, dict[str, Any]]  # fields to write, by bound Reflex state class


class AgentStateMirror:
    """The part of a sink that keeps the app's bound states as the agent's state is (nothing without bound states)."""

    def __init__(self, shared: SharedStates | None, thread: Thread, conversation: Conversation) -> None:
        self._shared = shared
        self._thread = thread
        self._conversation = conversation
        self._good: Any = copy.deepcopy(thread.state)  # the agent's state as it last fitted the app's fields

    def read(self) -> None:
        """The page's state was just read into the thread's (before a run): that is the state that fits now."""
        self._good = copy.deepcopy(self._thread.state)

    def changed(self) -> Accepted | None:
        """The agent changed its state (a snapshot, a delta): the fields to write; refused, the thread's goes back."""
        if not self._shared:
            return None
        accepted = self._shared.accept(self._thread.state)
        if accepted is None:
            self._thread.state = copy.deepcopy(self._good)
            return None
        self._good = copy.deepcopy(self._thread.state)
        return accepted

    def prediction_began(self, call_id: str) -> None:
        """A call's arguments start moving keys of the state: their values as they are now, to go back to."""
        state, conversation = self._thread.state, self._conversation
        if isinstance(state, dict):
            for prediction in self._thread.predicting[call_id]:
                key = prediction.state_key
                conversation.predicted_from.setdefault(key, [copy.deepcopy(state[key])] if key in state else [])
        if call_id not in conversation.predicted_calls:
            conversation.predicted_calls.append(call_id)

    def predicted(self, call_id: str) -> Accepted | None:
        """The keys a call's arguments moved, to write (a partial value that does not fit yet waits)."""
        state = self._thread.state
        if not self._shared or not isinstance(state, dict):
            return None
        keys = [prediction.state_key for prediction in self._thread.predicting[call_id]]
        values = {key: state[key] for key in keys if key in state}
        accepted = self._shared.accept(values, quiet=True)
        if accepted is not None and isinstance(self._good, dict):
            self._good.update(copy.deepcopy(values))
        return accepted

    def decided(self, event: ToolExecutionEnded) -> Accepted | None:
        """A call ended: what it says of a provisional prediction (the restored fields to write, when rejected)."""
        if not self._conversation.predicted_from:
            return None
        verdict = _verdict_on_prediction(event, self._conversation)
        if verdict is False:
            return self._reject()
        if verdict:
            self.settle()
        return None

    def settle(self) -> None:
        """The person decided (or moved on): nothing the prediction wrote is provisional any more."""
        self._conversation.predicted_from.clear()
        self._conversation.predicted_calls.clear()

    def _reject(self) -> Accepted | None:
        """The person rejected what the prediction wrote: its keys go back to the values they had before."""
        state = dict(self._thread.state) if isinstance(self._thread.state, dict) else {}
        restored = {}
        for key, before in self._conversation.predicted_from.items():
            if before:
                state[key] = restored[key] = copy.deepcopy(before[0])
            else:
                state.pop(key, None)
        self._thread.state = state
        self.settle()
        accepted = self._shared.accept(restored) if self._shared and restored else None
        if accepted is not None:
            self._good = copy.deepcopy(state)
        return accepted


def _verdict_on_prediction(event: ToolExecutionEnded, conversation: Conversation) -> bool | None:
    """What a call's end says of a provisional prediction: kept (True), rejected (False), or nothing (None).

    The person rejects it by denying a call that wrote it, or by answering a confirm tool (the dojo's
    confirm_changes) with `{"accepted": false}`; `{"accepted": true}` keeps it.
    """
    if event.status == "denied":
        return False if event.call_id in conversation.predicted_calls else None
    if event.status != "complete" or event.is_error:
        return None
    try:
        answer = json.loads(event.result)
    except ValueError:
        return None
    accepted = answer.get("accepted") if isinstance(answer, dict) else None
    return accepted if isinstance(accepted, bool) else None
