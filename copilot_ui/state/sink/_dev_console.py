"""The dev console's log of a turn: its AG-UI events, the RunAgentInput it sent, each run's and tool's timing.

Off unless the app turns it on (`copilot.dev_console`, or COPILOT_DEV_CONSOLE=1). The log is a text
like the replies (appended in pieces through the view sink), scrubbed of secrets before it is cut.
"""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Callable
from typing import Any

from ...agents import Scrubber
from ...core import Hooks
from ..declarations import copilot

EVENT_CHARS, INPUT_CHARS = 400, 6000  # how much of an event, and of a RunAgentInput, the console shows


class DevConsole:
    """Writes a turn's log lines to the text `tid` through `append(tid, text)`."""

    def __init__(self, tid: str, append: Callable[[str, str], None], scrubber: Scrubber) -> None:
        self.tid = tid
        self._append = append
        self._scrubber = scrubber
        self._started = time.monotonic()
        self._began: dict[str, float] = {}  # what started when (runs, tools)

    @staticmethod
    def on() -> bool:
        """Whether the app turned the dev console on."""
        return copilot.dev_console

    def hooks(self, base: Hooks) -> Hooks:
        """The app's hooks, with the console's own added when it is on."""
        if not self.on():
            return base
        lists = {item.name: list(getattr(base, item.name)) for item in dataclasses.fields(base)}
        lists["on_event"].append(self._event)
        lists["before_agent_call"].append(self._input)
        return Hooks(**lists)

    def began(self, key: str, line: str = "") -> None:
        """Something timed began (a run, a tool): noted under `key`, with a line when one says so."""
        if self.on():
            self._began[key] = time.monotonic()
            if line:
                self.line(line)

    def ended(self, key: str, line: str, took: str) -> None:
        """What began under `key` ended: the line, then `took` and how long it took (when its start was seen)."""
        started = self._began.pop(key, None)
        self.line(f"{line} {took} {time.monotonic() - started:.3f} s" if started is not None else line)

    def line(self, line: str) -> None:
        """One line of the log, stamped with the seconds since the turn began."""
        if self.on():
            self._append(self.tid, f"{time.monotonic() - self._started:8.3f}s  {line}\n")

    def _event(self, event: Any) -> None:
        delta = getattr(event, "delta", None)
        if isinstance(delta, str):  # a piece of a text: its length (a piece of a secret is no longer one to scrub)
            self.line(f"{event.type.value} ({len(delta)} characters)")
            return
        body = event.model_dump_json(by_alias=True, exclude_none=True, exclude={"type", "timestamp", "raw_event"})
        self.line(f"{event.type.value} {_clipped(self._scrubber.scrub(body), EVENT_CHARS)}")  # scrubbed, then cut

    def _input(self, run_input: Any) -> None:
        sent = {
            "threadId": run_input.thread_id,
            "runId": run_input.run_id,
            "messages": len(run_input.messages),
            "tools": [tool.name for tool in run_input.tools],
            "context": [item.model_dump(by_alias=True) for item in run_input.context],
            "state": run_input.state,
        }
        shown = self._scrubber.scrub(json.dumps(sent, ensure_ascii=False, default=str, indent=1))
        self.line("RunAgentInput " + _clipped(shown, INPUT_CHARS))


def _clipped(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
