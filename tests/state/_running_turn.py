"""A turn of this worker working on a thread, as `work` begins one, its view shown nowhere: for the tests of who runs
a thread and of what a stopping worker keeps, which need a real ThreadRun without a tab."""

from __future__ import annotations

from copilot_ui.agents import ScriptedAgent, Scrubber
from copilot_ui.core import RunLoop, Thread, claims
from copilot_ui.state.sink import Send, ViewSink, ViewUpdate
from copilot_ui.state.turns import Keeper, Tab, thread_runs
from copilot_ui.state.view import Conversation
from copilot_ui.store import ThreadStore


def a_running_turn(
    store: ThreadStore, owner: str, thread: Thread, send: Send | None = None, tab: Tab | None = None
) -> thread_runs.ThreadRun:
    """The thread claimed and run by a turn whose keeper saves it in `store` for `owner` (its browser events to
    `send`, or nowhere), for `tab` (or none)."""
    claim = claims.claim(thread.id)
    assert claim is not None, "something else holds the thread"
    sink = ViewSink(_shown_nowhere, thread, Conversation.of(thread.id), scrubber=Scrubber(), send=send)
    return thread_runs.begin(claim, thread, RunLoop(ScriptedAgent()), sink, tab, Keeper(store, owner, "default"))  # type: ignore[arg-type]


async def _shown_nowhere(shown: ViewUpdate) -> None:
    pass
