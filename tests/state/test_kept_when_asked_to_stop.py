"""A worker asked to stop keeps its running turns at the signal itself: dev mode's reload kills a worker 2 s after
asking, so what a streaming reply showed is in the store before the server's own handler starts its shutdown. A real
SQLite store, a real ThreadRun, a real SIGTERM to this process, handled on the event loop as granian's workers do."""

from __future__ import annotations

import asyncio
import os
import signal

from ag_ui.core import AssistantMessage

from copilot_ui.core import Thread
from copilot_ui.state.turns import _at_exit, thread_runs
from copilot_ui.store import SQLThreadStore

from ._running_turn import a_running_turn


def test_the_words_a_reply_showed_are_kept_before_the_server_handles_the_stop_signal(tmp_path, monkeypatch):
    monkeypatch.setattr(_at_exit, "_exit_hook_in", set())  # (this process may have set its hooks on another loop)
    monkeypatch.setattr(_at_exit, "stop_signalled", False)  # (restored after: later tests' turns send their events)

    async def asked_to_stop() -> list[str]:
        store = SQLThreadStore(f"sqlite:///{tmp_path / 'threads.db'}")
        thread = Thread(store.create("alice", agent="default").id)
        thread.add_user_message("tell me a story", "u1")
        thread.add_message(AssistantMessage(id="a1", content="Once upon a time"))  # shown, not kept yet
        turn = a_running_turn(store, "alice", thread)
        loop = asyncio.get_running_loop()
        kept_when_the_server_stopped: list[str] = []
        server_stopping = asyncio.Event()

        def server_stops() -> None:  # the server's own handler: from here on it shuts down, and may be killed
            stored = store.load_with_notes("alice", thread.id)
            assert stored is not None
            kept_when_the_server_stopped.extend(str(message.content) for message in stored.thread.messages)
            server_stopping.set()

        loop.add_signal_handler(signal.SIGTERM, server_stops)
        try:
            _at_exit.kept_at_exit()
            os.kill(os.getpid(), signal.SIGTERM)
            await asyncio.wait_for(server_stopping.wait(), 10)
        finally:
            loop.remove_signal_handler(signal.SIGTERM)
            thread_runs.leave(turn)
            await thread_runs.hand_over(turn, None)
        return kept_when_the_server_stopped

    assert asyncio.run(asked_to_stop()) == ["tell me a story", "Once upon a time"]
