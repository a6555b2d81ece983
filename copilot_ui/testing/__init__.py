"""copilot_ui.testing: test an app's copilot flows without a browser or a model (a pytest plugin).

In the app's conftest.py:

    pytest_plugins = ["copilot_ui.testing"]

then, in a test, the `copilot` fixture is a person's tab of the app, whose agent is scripted:

    def test_the_copilot_filters_the_dashboard(copilot):
        copilot.agent.calls("filter_orders", city="Berlin").says("Showing Berlin.")
        copilot.say("filter to Berlin")
        assert copilot.state(DashboardState).city == "Berlin"

Everything runs through Reflex's own event processor and the copilot's real run loop: the app's
tools change its real states, approvals and questions wait for `copilot.approve()`, `deny()` or
`answer()`. To test the app's own built-in agent (its backend tools, its shared state), script its
model instead: `copilot.model.calls("save_note", text="…").says("Noted.")`. Reflex is imported when
a fixture is first used, not when the plugin loads.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from ._fixture import copilot_session
    from ._model import ScriptedModel
    from ._replies import ScriptedReplies
    from ._session import CopilotSession, Shown

__all__ = ["CopilotSession", "ScriptedModel", "ScriptedReplies", "Shown", "copilot", "copilot_session"]


@pytest.fixture
def copilot(tmp_path: Path) -> Iterator[CopilotSession]:
    """A person's tab of the app on its page "/", with the copilot; its agent ("default") is scripted
    (`copilot.agent.says(...)`, `.calls(...)`), or is the app's own on a scripted model (`copilot.model.says(...)`),
    its conversations kept in a store of the test's own."""
    from ._fixture import copilot_session

    with copilot_session(tmp_path) as session:
        yield session


def __getattr__(name: str) -> object:
    if name in ("CopilotSession", "Shown"):
        from . import _session

        return getattr(_session, name)
    if name == "ScriptedReplies":
        from ._replies import ScriptedReplies

        return ScriptedReplies
    if name == "ScriptedModel":
        from ._model import ScriptedModel

        return ScriptedModel
    if name == "copilot_session":
        from ._fixture import copilot_session

        return copilot_session
    raise AttributeError(f"module 'copilot_ui.testing' has no attribute {name!r}")
