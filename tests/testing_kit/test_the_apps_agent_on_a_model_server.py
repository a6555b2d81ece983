"""The app's own built-in agent in a kit test, on a real provider's client: `copilot.model` is pydantic-ai's OpenAI model
(Chat Completions, then Responses) talking to aimock, CopilotKit's mock LLM server, over HTTP on 127.0.0.1. The agent's
backend tool writes the state it shares with the page, a page's tool changes the page, and the follow-up request
carries the tools' results, as with a real model. The app is the testing guide's (dashboard.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from pydantic_ai.models.openai import OpenAIChatModel, OpenAIResponsesModel
from pydantic_ai.providers.openai import OpenAIProvider

from tests.testing_kit.dashboard import DashboardState, NotesState
from tests.wire._aimock import Aimock, after_tools, tool_calls

MODELS = {"chat": OpenAIChatModel, "responses": OpenAIResponsesModel}


@pytest.fixture(scope="module")
def aimock(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Aimock]:
    with Aimock(tmp_path_factory.mktemp("aimock")) as server:
        yield server


@pytest.mark.parametrize("api", list(MODELS))
def test_the_apps_agent_writes_its_notes_through_a_providers_api(copilot, aimock: Aimock, api: str):
    said = "remind me to call Ada back"
    aimock.serve(after_tools(said, "Noted."), tool_calls(said, ("save_note", {"text": "Call Ada back."})))
    copilot.model = MODELS[api]("gpt-4o", provider=OpenAIProvider(base_url=aimock.openai_url, api_key="sk-test-kit"))

    copilot.say(said)

    assert copilot.state(NotesState).note == "Call Ada back."
    assert [(card.tool, card.status, card.text) for card in copilot.tool_calls] == [("save_note", "complete", "Saved.")]
    assert copilot.replies == ["Noted."]
    assert len(aimock.requests()) == 2  # the call, then the follow-up with its result, in one run


@pytest.mark.parametrize("api", list(MODELS))
def test_the_apps_agent_calls_a_page_tool_through_a_providers_api(copilot, aimock: Aimock, api: str):
    said = "only the orders from Paris"
    aimock.serve(after_tools(said, "Showing Paris."), tool_calls(said, ("filter_orders", {"city": "Paris"})))
    copilot.model = MODELS[api]("gpt-4o", provider=OpenAIProvider(base_url=aimock.openai_url, api_key="sk-test-kit"))

    copilot.say(said)

    assert copilot.state(DashboardState).city == "Paris"
    assert copilot.replies == ["Showing Paris."]
    assert [item.kind for item in copilot.conversation] == ["user", "tool", "assistant"]  # no word of the app's CRM server
