"""A worker that stops keeps its running turns: each thread as it shows now, its run marked cut off.

Once per process, when it is asked to stop (SIGTERM, SIGINT) and when it exits.
"""

from __future__ import annotations

import asyncio
import multiprocessing.util
import os
import signal

from . import _thread_runs as thread_runs
from ._keeping import writes_land


def _keep_running_turns() -> None:
    """Keep each running turn's thread as it is now, every word shown included, its run cut off (the saves on their
    way land first)."""
    writes_land()
    for thread_run in thread_runs.all_running():
        if thread_run.keeper is not None:
            thread_run.keeper.save_now(thread_run.thread, thread_run.sink.conversation)


_exit_hook_in: set[int] = set()  # the processes whose turns are kept when they exit


def kept_at_exit() -> None:
    """Have this process keep its turns when it is asked to stop and when it exits, once per process: a server's
    worker process (multiprocessing, as granian's are) exits without running `atexit`, and forgets the exit hooks its
    parent made before it was forked; multiprocessing's own exit hooks run in both, and in a plain process at
    `atexit`. A worker may be killed before it exits (dev mode's reload kills it 2 s after asking), hence the signal."""
    if os.getpid() not in _exit_hook_in:
        _exit_hook_in.add(os.getpid())
        multiprocessing.util.Finalize(None, _keep_running_turns, exitpriority=100)
        _keep_on_stop_signal(asyncio.get_running_loop())


def _keep_on_stop_signal(loop: asyncio.AbstractEventLoop) -> None:
    """Run `_keep_running_turns` first when the server's handler of SIGTERM or SIGINT on this loop runs (granian's
    and uvicorn's workers stop so); asyncio keeps a loop's handlers only in a private table, read with care."""
    handlers = getattr(loop, "_signal_handlers", None)
    if not isinstance(handlers, dict):
        return
    for stop in (signal.SIGTERM, signal.SIGINT):
        server_handler = handlers.get(stop)
        if isinstance(server_handler, asyncio.Handle):
            loop.add_signal_handler(stop, _kept_then, server_handler)


stop_signalled = False  # this process was asked to stop: its turns were kept as they showed then


def _kept_then(server_handler: asyncio.Handle) -> None:
    global stop_signalled
    stop_signalled = True
    try:
        _keep_running_turns()
    finally:
        server_handler._run()  # pyright: ignore[reportPrivateUsage]
