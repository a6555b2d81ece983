"""pydantic-ai's first-run banner, as an app developer reads it when the built-in agent first answers: it names the
model that runs ("openai-chat:gpt-4o" on Chat Completions, not "openai:gpt-4o", which is the Responses API).

The banner shows once a process, to a terminal or a coding agent that reads stderr, never under pytest: each app
here is a process of its own, told it is read by one (AI_AGENT, pydantic-ai's signal for it).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from ._aimock import Aimock, text
from ._providers import BASE_SETTINGS, configured

CHECKOUT = Path(__file__).resolve().parents[2]
APP = """
import asyncio

from ag_ui.core import RunAgentInput, TextMessageContentEvent, UserMessage

from copilot_ui.server import agent_from_environment


async def one_turn() -> None:
    message = UserMessage(id="u1", content="are you there")
    run = RunAgentInput(thread_id="t", run_id="r", messages=[message], tools=[], context=[], state={}, forwarded_props={})
    async for event in agent_from_environment().run(run):
        if isinstance(event, TextMessageContentEvent):
            print(event.delta, end="")


asyncio.run(one_turn())
"""


@pytest.mark.parametrize("provider_id", ["openai-chat", "openai"])
def test_the_banner_names_the_model_that_answers(provider_id: str, aimock: Aimock):
    aimock.serve(text("are you there", "I am here."))
    provider = configured(provider_id, aimock)

    app = subprocess.run(
        [sys.executable, "-c", APP], env=_app_environment(provider.environment), capture_output=True, text=True, timeout=60
    )

    assert app.stdout == "I am here.", app.stderr[-2000:]
    assert re.search(rf"model: {re.escape(provider_id)}:gpt-4o(\s|$)", app.stderr, re.MULTILINE), app.stderr[-2000:]


def _app_environment(provider: dict[str, str]) -> dict[str, str]:
    """This environment as an app developer's shell has it (not pytest's, not CI's), with the provider's settings."""
    kept = {
        name: value
        for name, value in os.environ.items()
        # (PYDANTIC_AI_NO_BANNER: a shell that silences the banner would hide what this test reads)
        if name not in ("PYTEST_VERSION", "CI", "PYDANTIC_AI_NO_BANNER")
        and not name.startswith(("COPILOT_", "OPENAI_", "ANTHROPIC_"))
    }
    checkout = os.pathsep.join(filter(None, [str(CHECKOUT), os.environ.get("PYTHONPATH", "")]))
    return {**kept, **BASE_SETTINGS, **provider, "AI_AGENT": "1", "NO_COLOR": "1", "PYTHONPATH": checkout}
