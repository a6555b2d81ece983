"""The demo agent's backend tool: the weekly report, written into the state the agent shares with the page.

`write_report` runs in the agent (not on the page). It writes its text into `AgentReport.report` (the page's
`ReportState.report`) sentence by sentence and sends a STATE_DELTA after each, so the page's "Report draft" panel
fills while the agent writes. Give the built-in agent both:
`builtin_agent(tools=demo_backend_tools(), state_type=AgentReport)`.
"""

from __future__ import annotations

import asyncio
import re

from pydantic import BaseModel
from pydantic_ai import RunContext, Tool
from pydantic_ai.ui import StateDeps

from copilot_ui.server import emit_state_delta

REPORT_PACE = 0.25  # seconds between the report's sentences: a pace at which a person watches it being written


class AgentReport(BaseModel):
    """The state the demo agent shares with the page (the agent's side of the app's ReportState): the report draft."""

    report: str = ""


def demo_backend_tools(pace: float = REPORT_PACE) -> list[Tool[StateDeps[AgentReport]]]:
    """The demo agent's own tools (they need `state_type=AgentReport`): write_report."""

    async def write_report(ctx: RunContext[StateDeps[AgentReport]], text: str) -> str:
        """Write the report into the page's "Report draft" panel, replacing the draft it holds."""
        for count, written in enumerate(_sentence_by_sentence(text)):
            if count:
                await asyncio.sleep(pace)
            ctx.deps.state.report = written
            # "add" sets the member whether or not the page's state has one yet
            await emit_state_delta(ctx, [{"op": "add", "path": "/report", "value": written}])
        return f"The Report draft panel now holds the report ({len(text.split())} words)."

    return [Tool(write_report, takes_ctx=True)]


def _sentence_by_sentence(text: str) -> list[str]:
    """The text as it grows: up to the end of its first sentence, its second, ..., all of it."""
    ends = [match.end() for match in re.finditer(r"[.!?…](?=\s)|\n\n", text)]
    prefixes = [text[:end].rstrip() for end in ends]
    return [prefix for prefix in dict.fromkeys([*prefixes, text]) if prefix] or [text]
