"""The `copilot` fixture's set-up: a scripted agent in place of the app's (or the app's own on the test's model), a
store and a copilot folder of the test's own, the app running headless; and everything put back afterwards."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from .._home import HOME_VARIABLE
from ..state import copilot
from ..store import SQLThreadStore
from ._headless import HeadlessApp
from ._replies import ScriptedReplies
from ._session import CopilotSession


@contextmanager
def copilot_session(folder: Path, *, agent_id: str = "default", page: str = "/") -> Iterator[CopilotSession]:
    """A tab of the app on `page` whose agent `agent_id` is scripted (or, once the test scripts `copilot.model`, is
    the app's own on that model), its conversations and the copilot's files kept in `folder`; the app's own agent,
    store and folder come back after."""
    agent = ScriptedReplies(agent_id=agent_id)
    previous = copilot.agents.get(agent_id) if agent_id in copilot.agents else None
    previous_store, previous_home = copilot._store, os.environ.get(HOME_VARIABLE)
    folder.mkdir(parents=True, exist_ok=True)
    os.environ[HOME_VARIABLE] = str(folder / ".copilot")
    copilot.agents.register(agent)
    copilot.store = SQLThreadStore(f"sqlite:///{folder / 'threads.db'}")
    app = HeadlessApp()
    try:
        yield CopilotSession(app, agent, page=page, own_agent=previous)
    finally:
        app.close()
        copilot._store = previous_store
        if previous is not None:
            copilot.agents.register(previous)
        else:
            copilot.agents.remove(agent_id)
        if previous_home is None:
            os.environ.pop(HOME_VARIABLE, None)
        else:
            os.environ[HOME_VARIABLE] = previous_home
