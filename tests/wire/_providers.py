"""The provider ring's parts: aimock, each provider configured as a person configures it (the environment), and a page.

A person sets COPILOT_MODEL (and the provider's key and, here, its base URL: aimock's) and the app builds
its agent with `agent_from_environment`, as the demo app does. The page has tools that change what it
shows; a Session is the person at it, with the real run loop between them and the agent.
"""

from __future__ import annotations

import asyncio
import json
import os
import secrets
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from ag_ui.core import AssistantMessage, Context, ReasoningMessageContentEvent, TextMessageContentEvent, ToolCallArgsEvent

from copilot_ui.core import (
    AwaitingPerson,
    Decision,
    ErrorOccurred,
    Event,
    RunLoop,
    Thread,
    Toolbox,
    TurnOutcome,
    tool_from_function,
)
from copilot_ui.server import agent_from_environment

from ._aimock import Aimock

TURN_TIMEOUT = 20.0  # seconds: no turn of these tests may take longer, whatever the provider does
PROVIDERS = ["openai", "openai-chat", "anthropic", "compatible"]
# Settings every test starts from: an error shows at once (no retries), and nothing waits a minute.
BASE_SETTINGS = {"COPILOT_MODEL_RETRIES": "0", "COPILOT_MODEL_TIMEOUT": "5"}


@dataclass(frozen=True)
class Provider:
    """A provider as a person configures it, and how the copilot's messages name it."""

    id: str
    environment: dict[str, str]
    name: str  # as a message names it: "OpenAI", "the model server at 127.0.0.1:4010"
    key_variable: str
    key: str  # the API key, which no message may show
    model_name: str

    @property
    def called(self) -> str:
        """Its name at the start of a sentence."""
        return self.name[:1].upper() + self.name[1:]


def configured(provider_id: str, mock: Aimock) -> Provider:
    """The environment that points a provider at aimock, with an API key of its own."""
    key = "sk-test-" + secrets.token_urlsafe(18)
    if provider_id in ("openai", "openai-chat"):
        environment = {"COPILOT_MODEL": f"{provider_id}:gpt-4o", "OPENAI_BASE_URL": mock.openai_url, "OPENAI_API_KEY": key}
        return Provider(provider_id, environment, "OpenAI", "OPENAI_API_KEY", key, "gpt-4o")
    if provider_id == "anthropic":
        environment = {"COPILOT_MODEL": "anthropic:claude-sonnet-4-5", "ANTHROPIC_BASE_URL": mock.url, "ANTHROPIC_API_KEY": key}
        return Provider(provider_id, environment, "Anthropic", "ANTHROPIC_API_KEY", key, "claude-sonnet-4-5")
    # Ollama, vLLM, LM Studio: a base URL and a model's name; an OpenAI key around must not go there.
    environment = {
        "COPILOT_BASE_URL": mock.openai_url,
        "COPILOT_MODEL": "llama3.1",
        "COPILOT_API_KEY": key,
        "OPENAI_API_KEY": key[::-1],
    }
    return Provider(provider_id, environment, f"the model server at 127.0.0.1:{mock.port}", "COPILOT_API_KEY", key, "llama3.1")


@pytest.fixture(scope="module")
def aimock(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Aimock]:
    with Aimock(tmp_path_factory.mktemp("aimock")) as server:
        yield server


@pytest.fixture(params=PROVIDERS)
def provider(request: pytest.FixtureRequest, aimock: Aimock, monkeypatch: pytest.MonkeyPatch) -> Provider:
    """Each provider in turn, configured in the environment (and nothing else of the kind there)."""
    chosen = configured(request.param, aimock)
    configure(monkeypatch, chosen.environment)
    return chosen


def configure(monkeypatch: pytest.MonkeyPatch, environment: dict[str, str]) -> None:
    """The environment holds these settings for the copilot and its providers, and no others."""
    for name in list(os.environ):
        if name.startswith(("COPILOT_", "OPENAI_", "ANTHROPIC_")):
            monkeypatch.delenv(name)
    for name, value in {**BASE_SETTINGS, **environment}.items():
        monkeypatch.setenv(name, value)


@dataclass
class Page:
    """What the page shows, which its tools change, and the context it sends with each run."""

    theme: str = "light"
    city: str = ""
    note: str = ""
    refunded: list[str] = field(default_factory=list)

    def toolbox(self) -> Toolbox:
        def set_theme(mode: str) -> str:
            """Switch the dashboard between light and dark."""
            self.theme = mode
            return f"Theme is now {mode}."

        def filter_orders(city: str) -> str:
            """Show only the orders from a city."""
            self.city = city
            return f"Showing the orders from {city}."

        def write_note(text: str) -> str:
            """Put a note on the dashboard."""
            self.note = text
            return "The note is on the dashboard."

        def refund_order(order_id: str, reason: str) -> str:
            """Refund an order (the person approves first)."""
            self.refunded.append(order_id)
            return f"Order {order_id} refunded."

        def confirm_plan(steps: list[str]) -> None:
            """Let the person choose the steps of a plan."""

        return Toolbox(
            [
                tool_from_function(set_theme),
                tool_from_function(filter_orders),
                tool_from_function(write_note),
                tool_from_function(refund_order, approval="always"),
                tool_from_function(confirm_plan, kind="human"),
            ]
        )

    def context(self) -> list[Context]:
        shown = {"theme": self.theme, "city": self.city, "note": self.note, "refunded": self.refunded}
        return [Context(description="What the user sees on the dashboard", value=json.dumps(shown))]


class Session:
    """A person at the page, with the copilot between them and the agent the environment configures."""

    def __init__(self) -> None:
        self.page = Page()
        self.thread = Thread()
        self.events: list[Event] = []
        self.agent = agent_from_environment()
        self.loop = RunLoop(self.agent, self.page.toolbox(), context=self.page.context, emit=self.events.append, ask_person=True)

    async def say(self, text: str) -> TurnOutcome:
        """The person writes; the turn runs until it is done, waits for them, or fails."""
        return await asyncio.wait_for(self.loop.send(self.thread, text), TURN_TIMEOUT)

    async def decide(self, decision: Decision) -> TurnOutcome:
        """The person decides on the one call that waits for them; the turn goes on."""
        [waiting] = self.of(AwaitingPerson)[-1:]
        assert self.loop.decide(self.thread, waiting.call_id, decision, waiting.digest)
        return await asyncio.wait_for(self.loop.resume(self.thread), TURN_TIMEOUT)

    async def retry(self) -> TurnOutcome:
        """The person presses Retry after an error."""
        return await asyncio.wait_for(self.loop.retry(self.thread), TURN_TIMEOUT)

    def of(self, kind: type) -> list[Any]:
        return [event for event in self.events if isinstance(event, kind)]

    def pieces(self) -> list[str]:
        """The pieces of text the person saw arrive, in order."""
        return [event.delta for event in self.of(TextMessageContentEvent)]

    def argument_pieces(self) -> list[str]:
        return [event.delta for event in self.of(ToolCallArgsEvent)]

    def reasoning(self) -> str:
        return "".join(event.delta for event in self.of(ReasoningMessageContentEvent))

    def errors(self) -> list[str]:
        """The errors the person was shown."""
        return [event.message for event in self.of(ErrorOccurred)]

    def replies(self) -> list[str]:
        """The agent's words in the conversation (its messages with text)."""
        return [m.content for m in self.thread.messages if isinstance(m, AssistantMessage) and m.content]
