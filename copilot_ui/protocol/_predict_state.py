"""Predictive state updates, as CopilotKit and the AG-UI dojo define them: a tool's argument streams into the state.

The agent sends a CUSTOM event named `PredictState` whose value lists `{state_key, tool, tool_argument}`.
From then on in its run, while a call of `tool` streams its arguments, the state's `state_key` holds
`tool_argument` as far as it has arrived (the whole arguments object when `tool_argument` is left out),
so that a page bound to the state shows a document growing as the agent writes it; when the call
ends, the key holds the final value. A later PredictState replaces the run's mappings, and each run
starts without any (the agent sends them again). Whether the person keeps the change is the UI's
question (a confirm tool); this module only moves the values.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass

from ._json import JSON, JSONObject
from ._thread import AGUIThread

logger = logging.getLogger("copilot_ui.protocol")

PREDICT_STATE = "PredictState"  # the name of the CUSTOM event that maps tool arguments to state keys


@dataclass(frozen=True)
class StatePrediction:
    """One mapping of a PredictState event: while `tool`'s arguments stream, `state_key` follows `tool_argument`."""

    state_key: str
    tool: str
    tool_argument: str | None = None  # None: the whole arguments object

    def value_in(self, arguments: JSON) -> tuple[bool, JSON]:
        """(found, value): the predicted value in a call's arguments (parsed as far as they have streamed)."""
        if self.tool_argument is None:
            return isinstance(arguments, dict), arguments
        if isinstance(arguments, dict) and self.tool_argument in arguments:
            return True, arguments[self.tool_argument]
        return False, None


def predictions_in(value: JSON) -> list[StatePrediction]:
    """The mappings of a PredictState event's value; an entry that is not a mapping is skipped with a warning."""
    entries = value if isinstance(value, list) else [value]
    found: list[StatePrediction] = []
    for entry in entries:
        key, tool = (entry.get("state_key"), entry.get("tool")) if isinstance(entry, dict) else (None, None)
        argument = entry.get("tool_argument") if isinstance(entry, dict) else None
        if isinstance(key, str) and key and isinstance(tool, str) and tool and (argument is None or isinstance(argument, str)):
            found.append(StatePrediction(key, tool, argument or None))
        else:
            logger.warning("PredictState: skipping %r; an entry is {state_key, tool, tool_argument?} with strings", entry)
    return found


class StatePredictor:
    """The predictions of one run, applied to the thread's state as the calls they name stream their arguments."""

    def __init__(self, thread: AGUIThread) -> None:
        self.thread = thread
        self._by_tool: dict[str, tuple[StatePrediction, ...]] = {}
        self._warned = False

    def mapped(self, value: JSON) -> None:
        """A PredictState event arrived: its mappings replace the run's."""
        by_tool: dict[str, list[StatePrediction]] = {}
        for prediction in predictions_in(value):
            by_tool.setdefault(prediction.tool, []).append(prediction)
        self._by_tool = {tool: tuple(predictions) for tool, predictions in by_tool.items()}

    def call_started(self, call_id: str, tool_name: str) -> None:
        """A call began: if its tool is mapped, its arguments will predict the state (thread.predicting)."""
        predictions = self._by_tool.get(tool_name)
        if predictions:
            self.thread.predicting[call_id] = predictions

    def arguments_grew(self, call_id: str) -> None:
        """More arguments arrived: the mapped keys take the values parsed so far."""
        predictions = self.thread.predicting.get(call_id)
        if predictions:
            self._write(predictions, self.thread.partial_arguments(call_id))

    def call_ended(self, call_id: str) -> None:
        """The arguments are complete: the mapped keys take their final values."""
        predictions = self.thread.predicting.get(call_id)
        call = self.thread.tool_call(call_id) if predictions else None
        if predictions and call is not None:
            try:
                self._write(predictions, json.loads(call.function.arguments or "{}"))
            except ValueError:
                logger.warning("PredictState: the arguments of %r are not JSON; the state keeps their last part", call_id)

    def _write(self, predictions: tuple[StatePrediction, ...], arguments: JSON) -> None:
        state = self.thread.state
        if not isinstance(state, dict):
            if not self._warned:
                self._warned = True
                logger.warning("PredictState: the state is not an object; no key of it can follow a tool's arguments")
            return
        changed: JSONObject = {}
        for prediction in predictions:
            found, value = prediction.value_in(arguments)
            if found:
                changed[prediction.state_key] = value
        if changed:  # a new object: whoever holds the state as it was (a run's input) keeps it as it was
            self.thread.state = {**state, **changed}
