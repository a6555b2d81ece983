"""A tool call's arguments as OpenAI streams them, in Chromium: they grow on the card as they arrive.

OpenAI sends a tool call's name in a first chunk whose arguments are "" and the arguments after it in
small pieces, on both of its APIs (Chat Completions and Responses). CopilotKit's mock LLM server
streams them that way here, 4 characters a chunk; the app's default agent speaks the Responses API,
its second agent (`_openai_extras`) Chat Completions. The page records every text the card showed
(a MutationObserver): each must be what had arrived so far, never a text that is not a beginning of
the arguments, and the card ends with all of them.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.wire._aimock import Aimock, text

from ._person import TURN_TIMEOUT, ask, card, hydrated, idle, replies
from .conftest import EXTRAS, ServedApp, Tabs, _served

APIS = {"responses": "default", "chat-completions": "chat-completions"}  # the agent that speaks each API (_openai_extras)
CHUNK = 4  # characters of arguments in a chunk
LATENCY = 120  # ms before each chunk
REFUND = {"order_id": "#1042", "reason": "The vase came broken, in Köln."}
PLAN = {"steps": ["Compare June's refunds", "Write to Köln", "Close the books"]}

# Every text the refund card's Arguments showed, and every list of steps the plan card showed, in order.
RECORDER = """
window.__shown = {arguments: [], steps: []};
const kept = (list, value) => { if (JSON.stringify(list[list.length - 1]) !== JSON.stringify(value)) list.push(value); };
new MutationObserver(() => {
  const shown = document.querySelector('[data-tool="refund_order"] [data-tid$=".a"]');
  if (shown) kept(window.__shown.arguments, shown.textContent);
  const plan = document.querySelector('[data-tool="confirm_plan"] .demo-plan');
  if (plan) kept(window.__shown.steps, [...plan.querySelectorAll("li")].map((step) => step.textContent));
}).observe(document, {subtree: true, childList: true, characterData: true});
"""


@pytest.fixture(scope="module")
def aimock(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Aimock]:
    with Aimock(tmp_path_factory.mktemp("aimock")) as server:
        yield server


@pytest.fixture(scope="module")
def openai_app(tmp_path_factory: pytest.TempPathFactory, aimock: Aimock, browser: Browser) -> Iterator[ServedApp]:
    """The demo app whose agents speak OpenAI's two APIs to aimock, each having answered once."""
    environment = {
        "COPILOT_MODEL": "openai:gpt-4o",
        "OPENAI_BASE_URL": aimock.openai_url,
        "OPENAI_API_KEY": "sk-test-streamed-arguments",
        "COPILOT_EXTRA_MODULES": f"{EXTRAS},tests.browser._openai_extras",
    }
    with _served(tmp_path_factory, "openai-app", ".web-test-openai", environment) as served:
        _warm_up(browser, served.url, aimock)
        yield served


def _warm_up(browser: Browser, url: str, aimock: Aimock) -> None:
    """Each agent answers once: a server's first reply on the Responses API starts seconds late (pydantic-ai and the
    openai package set themselves up), and its pieces, all received meanwhile, then come at once."""
    aimock.serve(text("are you there", "I am here."))
    context = browser.new_context(base_url=url)
    for agent in APIS.values():
        page = context.new_page()
        page.goto("/")
        hydrated(page)  # (a choice made before the page is the server's is lost)
        page.get_by_role("combobox", name="Agent").select_option(agent)
        ask(page, "are you there")
        expect(replies(page).last).to_have_text("I am here.", timeout=TURN_TIMEOUT)
        idle(page)
    context.close()


@pytest.fixture(params=list(APIS))
def openai_page(request: pytest.FixtureRequest, tabs: Tabs, openai_app: ServedApp) -> Page:
    """A tab whose copilot talks to the agent of one of OpenAI's APIs, recording what the cards show."""
    page = tabs.open(openai_app.url)
    page.add_init_script(RECORDER)
    page.goto("/")
    hydrated(page)  # (a choice made before the page is the server's is lost)
    if APIS[request.param] != "default":
        page.get_by_role("combobox", name="Agent").select_option(APIS[request.param])
    return page


def streamed(said: str, tool: str, arguments: dict) -> dict:
    """The model calls `tool`: its name with arguments "", then the arguments, CHUNK characters a chunk, LATENCY ms apart."""
    call = {"name": tool, "arguments": json.dumps(arguments, ensure_ascii=False)}
    return {
        "match": {"userMessage": said, "hasToolResult": False},
        "response": {"toolCalls": [call]},
        "chunkSize": CHUNK,
        "latency": LATENCY,
    }


def test_arguments_grow_on_the_default_card_as_they_arrive(aimock: Aimock, openai_page: Page):
    page = openai_page
    sent = json.dumps(REFUND, ensure_ascii=False)
    aimock.serve(streamed("refund the vase", "refund_order", REFUND))

    ask(page, "refund the vase order")
    refund = card(page, "refund_order")
    expect(refund).to_have_attribute("data-status", "awaiting_approval", timeout=TURN_TIMEOUT)
    whole = json.dumps(REFUND, indent=2, ensure_ascii=False)
    expect(refund.get_by_label("Arguments")).to_have_text(whole)

    shown = page.evaluate("window.__shown.arguments")
    growing, last = shown[:-1], shown[-1]
    assert len(growing) >= 5, f"the arguments did not show as they streamed: {shown}"
    assert all(sent.startswith(text) for text in growing), f"a text that is not what had arrived: {shown}"
    assert json.loads(last) == REFUND


def test_an_apps_card_gets_the_arguments_as_they_arrive(aimock: Aimock, openai_page: Page):
    page = openai_page
    aimock.serve(streamed("plan the quarter", "confirm_plan", PLAN))

    ask(page, "plan the quarter's end")
    plan = card(page, "confirm_plan")
    expect(plan).to_have_attribute("data-status", "awaiting_input", timeout=TURN_TIMEOUT)
    expect(plan.get_by_role("checkbox")).to_have_count(len(PLAN["steps"]))
    expect(plan.locator(".demo-step")).to_have_text(PLAN["steps"])

    shown = page.evaluate("window.__shown.steps")
    assert len(shown) >= 5, f"the steps did not show as they streamed: {shown}"
    for steps in shown:
        *whole, growing = steps or [""]
        assert whole == PLAN["steps"][: len(whole)], f"a step that is not what had arrived: {shown}"
        assert PLAN["steps"][len(whole)].startswith(growing), f"a step that is not what had arrived: {shown}"
