"""The agent of a test: its replies scripted in a few words, one run each, and what it was sent."""

from __future__ import annotations

import json

from ag_ui.core import RunAgentInput

from ..agents import ScriptedAgent
from ..agents import scripts as s
from ..protocol._json import JSON, JSONObject


class ScriptedReplies(ScriptedAgent):
    """A scripted agent whose next runs are written as `says`, `calls` and `fails`, in the order they come.

        copilot.agent.calls("filter_orders", city="Berlin").says("Showing the orders from Berlin.")

    scripts two runs: the first calls the tool; once its result is in, the run loop runs the agent again, and the
    second says the text. A run with no script left ends in an error the conversation shows.
    """

    def says(self, text: str) -> ScriptedReplies:
        """The next run answers with this text."""
        self.add(s.text_reply(text))
        return self

    def calls(self, tool: str, /, **arguments: JSON) -> ScriptedReplies:
        """The next run calls this tool with these arguments (and the loop runs the agent again after its result)."""
        self.add(s.tool_calls_reply((tool, arguments)))
        return self

    def calls_all(self, *calls: tuple[str, JSONObject]) -> ScriptedReplies:
        """The next run calls several tools at once: `calls_all(("a", {...}), ("b", {...}))`."""
        self.add(s.tool_calls_reply(*calls))
        return self

    def fails(self, message: str) -> ScriptedReplies:
        """The next run fails with this error (as an agent's server reports one)."""
        self.add(s.error_reply(message))
        return self

    @property
    def last_input(self) -> RunAgentInput:
        """What the agent was sent on its last run (messages, tools, context, state)."""
        if not self.inputs:
            raise AssertionError("the agent was not run")
        return self.inputs[-1]

    @property
    def seen_context(self) -> JSONObject:
        """The page's context on the last run, by description (JSON values decoded)."""
        return {item.description: _decoded(item.value) for item in self.last_input.context or ()}

    @property
    def offered_tools(self) -> list[str]:
        """The names of the tools offered on the last run."""
        return [tool.name for tool in self.last_input.tools or ()]

    @property
    def unused(self) -> int:
        """Scripted runs not used yet."""
        return len(self.scripts)


def _decoded(value: str) -> JSON:
    try:
        return json.loads(value)
    except ValueError:
        return value
