"""Where a message's first piece waits, in wall time: the timeline `python -m bench.load --profile` prints.

Each worker of a profiled app (bench/_profiling/sitecustomize.py arms this) notes, for every person's message (an
event named `*.send`), when it arrived, when the app called pydantic-ai's `Agent.iter`, when that run was set up, when
the model said its first words, and when the frame carrying them left for the tab; how long the garbage collector
stopped the worker; and its event loop's iterations that ran callbacks (how many, how long, how many took
LONG_ITERATION or more: each of those holds up every message waiting on the loop). The copilot and the anchor app are
timed at the same points, so their stages compare: the app's own set-up, pydantic-ai's set-up of the run, the way to
the model's first words, and the app's way from those words to the frame. Under load each stage is mostly waiting for
the event loop, which every person shares. Only the first run of a message counts; the figures are written to
`<folder>/<pid>.timeline` (`write_every`).
"""

from __future__ import annotations

import contextlib
import gc
import importlib.abc
import importlib.util
import json
import os
import sys
import time
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from bench._layers import write_every

# (name, from, to): each stage of a message's way to its first frame, in order
STAGES = (
    ("app_set_up", "arrived", "run"),
    ("run_set_up", "run", "prepared"),
    ("model_words", "prepared", "words"),
    ("words_to_frame", "words", "frame"),
)


@dataclass
class _Message:
    """A person's message on its way to its first frame."""

    wall: float = field(default_factory=time.time)  # when it arrived, for the benchmark to tell warm-up from crowd
    marks: dict[str, float] = field(default_factory=lambda: {"arrived": time.perf_counter()})
    said: str = ""  # the model's first word, which the frame carries


_open: dict[str, _Message] = {}  # tab token → its message
_done: list[dict[str, float]] = []  # each message's marks in ms from its arrival, and its "wall", once its frame left
_gc = {"paused": 0.0, "longest": 0.0}  # seconds the collector stopped this worker: in all, and at most at once
_gc_started = 0.0
LONG_ITERATION = 0.004  # seconds: an iteration of the event loop this long holds up every message waiting on it
# The event loop's iterations that ran callbacks: how many, their seconds, their callbacks, those of LONG_ITERATION or more
_loop = {"iterations": 0, "busy": 0.0, "callbacks": 0, "long": 0}
SUMMED = ("paused", *_loop)  # the figures that add up over time and over the workers (the others: "longest")
_iteration = {"busy": 0.0, "callbacks": 0}  # the iteration running now


def start(folder: str) -> None:
    """Time every process this one forks into `folder` (the hooks go in as the modules they hook are imported)."""
    sys.meta_path.insert(0, _Hooks())
    os.register_at_fork(after_in_child=lambda: _begin(Path(folder)))


def timeline(folder: Path, since: float) -> tuple[list[dict[str, float]], dict[str, float]]:
    """The messages of every process written to `folder` that arrived after `since` (time.time()), and the
    collector's pauses and the event loop's iterations so far, summed over the processes."""
    messages: list[dict[str, float]] = []
    totals = {"longest": 0.0, **dict.fromkeys(SUMMED, 0.0)}
    for written in folder.glob("*.timeline"):
        with contextlib.suppress(OSError, ValueError):
            figures = json.loads(written.read_text())
            messages += [message for message in figures["messages"] if message["wall"] >= since]
            totals["paused"] += figures["gc"]["paused"]
            totals["longest"] = max(totals["longest"], figures["gc"]["longest"])
            for figure, value in figures["loop"].items():
                totals[figure] += value
    return messages, totals


def stage_waits(messages: Sequence[dict[str, float]]) -> dict[str, list[float]]:
    """Each stage's milliseconds, over the messages that passed both its ends."""
    return {
        stage: [message[end] - message[begin] for message in messages if begin in message and end in message]
        for stage, begin, end in STAGES
    }


def _begin(folder: Path) -> None:
    gc.callbacks.append(_collected)
    _time_iterations()
    write_every(folder / f"{os.getpid()}.timeline", _figures, name="timeline")


def _figures() -> dict[str, object]:
    return {"messages": list(_done), "gc": dict(_gc), "loop": dict(_loop)}


def _time_iterations() -> None:
    """Time the callbacks of each iteration of asyncio's event loop (not its wait for I/O), into `_loop`."""
    import asyncio.base_events
    import asyncio.events

    run_once = asyncio.base_events.BaseEventLoop._run_once  # pyright: ignore[reportAttributeAccessIssue]
    run = asyncio.events.Handle._run

    def iteration(loop: Any) -> None:
        if _iteration["callbacks"]:  # (the last iteration is over)
            _loop["iterations"] += 1
            _loop["busy"] += _iteration["busy"]
            _loop["callbacks"] += _iteration["callbacks"]
            _loop["long"] += _iteration["busy"] >= LONG_ITERATION
            _iteration["busy"] = _iteration["callbacks"] = 0
        run_once(loop)

    def callback(handle: Any) -> None:
        began = time.perf_counter()
        try:
            run(handle)
        finally:
            _iteration["busy"] += time.perf_counter() - began
            _iteration["callbacks"] += 1

    asyncio.base_events.BaseEventLoop._run_once = iteration  # pyright: ignore[reportAttributeAccessIssue]
    asyncio.events.Handle._run = callback  # type: ignore[method-assign]


def _collected(phase: str, _info: dict[str, int]) -> None:
    global _gc_started
    if phase == "start":
        _gc_started = time.perf_counter()
    else:
        pause = time.perf_counter() - _gc_started
        _gc["paused"] += pause
        _gc["longest"] = max(_gc["longest"], pause)


def _current() -> _Message | None:
    """The message of the tab whose event runs now, if it is on its way to its first frame."""
    from reflex_base.event.context import EventContext

    try:
        return _open.get(EventContext.get().token)
    except LookupError:
        return None


def _mark(stage: str) -> None:
    """Note the stage for the current message, the first time only."""
    message = _current()
    if message is not None and stage not in message.marks:
        message.marks[stage] = time.perf_counter()


def _sent(token: str, update: object) -> None:
    """A frame left for the tab: the message's last mark, if it carries the model's first words."""
    message = _open.get(token)
    if message is not None and message.said and message.said in str(update):
        del _open[token]
        arrived, marks = message.marks["arrived"], message.marks | {"frame": time.perf_counter()}
        _done.append({stage: (at - arrived) * 1000 for stage, at in marks.items()} | {"wall": message.wall})


# The hooks: the same points in both apps (Reflex's event queue and socket, pydantic-ai's Agent and FunctionModel).


def _hook_events(module: ModuleType) -> None:
    enqueue = module.EventProcessor.enqueue

    async def arrives(self: Any, token: str, event: Any, *args: Any, **kwargs: Any) -> Any:
        if event.name.endswith(".send"):
            _open[token] = _Message()
        return await enqueue(self, token, event, *args, **kwargs)

    module.EventProcessor.enqueue = arrives


def _hook_socket(module: ModuleType) -> None:
    emit_update = module.EventNamespace.emit_update

    async def sends(self: Any, update: Any, token: str) -> None:
        await emit_update(self, update, token)
        _sent(token, update)

    module.EventNamespace.emit_update = sends


def _hook_agent(module: ModuleType) -> None:
    run = module.Agent.iter

    @contextlib.asynccontextmanager
    async def runs(self: Any, *args: Any, **kwargs: Any) -> AsyncIterator[Any]:
        _mark("run")
        async with run(self, *args, **kwargs) as agent_run:
            _mark("prepared")
            yield agent_run

    module.Agent.iter = runs


def _hook_model(module: ModuleType) -> None:
    made = module.FunctionModel.__init__

    def make(self: Any, *args: Any, **kwargs: Any) -> None:
        made(self, *args, **kwargs)
        if self.stream_function is not None:
            self.stream_function = _words_noted(self.stream_function)

    module.FunctionModel.__init__ = make


def _words_noted(stream: Callable[..., AsyncIterator[Any]]) -> Callable[..., AsyncIterator[Any]]:
    async def streams(*args: Any) -> AsyncIterator[Any]:
        async for piece in stream(*args):
            message = _current() if isinstance(piece, str) and piece.strip() else None
            if message is not None and not message.said:
                message.marks["words"], message.said = time.perf_counter(), piece.split()[0][:12]
            yield piece

    return streams


HOOKS: dict[str, Callable[[ModuleType], None]] = {
    "reflex_base.event.processor.event_processor": _hook_events,
    "reflex.app": _hook_socket,
    "pydantic_ai.agent": _hook_agent,
    "pydantic_ai.models.function": _hook_model,
}


class _Hooks(importlib.abc.MetaPathFinder):
    """Hooks a module of HOOKS once it is imported (this process and the workers it forks import them later)."""

    def find_spec(self, name: str, path: Sequence[str] | None, target: ModuleType | None = None) -> Any:
        if name not in HOOKS:
            return None
        sys.meta_path.remove(self)  # (the module's own spec, found as without this finder)
        try:
            spec = importlib.util.find_spec(name)
        finally:
            sys.meta_path.insert(0, self)
        if spec is None or spec.loader is None:
            return spec
        loader, hook = spec.loader, HOOKS[name]
        execute = loader.exec_module

        def exec_module(module: ModuleType) -> None:
            execute(module)
            hook(module)

        loader.exec_module = exec_module  # type: ignore[method-assign]
        return spec
