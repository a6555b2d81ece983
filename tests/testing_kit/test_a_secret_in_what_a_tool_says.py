"""A tool's exception can carry a secret it never meant to say (an API key in a URL, a connection string), and so can
what it returns: its text becomes the call's result, which the person sees on the card, the store keeps and the agent
reads, and so its model's provider. The secrets the copilot knows are scrubbed from it before any of them gets it."""

from __future__ import annotations

from pathlib import Path

import copilot_ui as cui
from copilot_ui.store import SQLThreadStore

SECRET = "sk-live-" + "Zq4" * 9


async def fetch_rates(currency: str) -> str:
    """Look up an exchange rate."""
    raise ConnectionError(f"GET https://rates.example/v1?key={SECRET}&to={currency}: connection refused")


def rates_settings() -> dict[str, str]:
    """What the rates service is configured with."""
    return {"url": f"https://rates.example/v1?key={SECRET}", "currency": "EUR"}


def test_a_secret_in_a_tools_error_reaches_neither_the_card_nor_the_store_nor_the_agent(copilot, monkeypatch):
    monkeypatch.setenv("RATES_API_KEY", SECRET)
    cui.copilot.frontend_tool(fetch_rates)
    try:
        copilot.agent.calls("fetch_rates", currency="EUR").says("The rates service is down.")
        copilot.say("what is the EUR rate?")
    finally:
        cui.copilot.toolbox.remove("fetch_rates")

    [card] = copilot.tool_calls
    assert card.status == "error"
    assert "connection refused" in card.text and "[redacted]" in card.text and SECRET not in card.text
    [result] = [message for message in copilot.agent.last_input.messages if message.role == "tool"]
    assert "connection refused" in result.content and SECRET not in result.content
    store = cui.copilot.store
    assert isinstance(store, SQLThreadStore) and store.url.database
    database = Path(store.url.database)
    kept = [path.read_bytes() for path in database.parent.glob(database.name + "*")]  # with its journal (WAL)
    assert kept and not [data for data in kept if SECRET.encode() in data]


def test_the_kit_shows_the_agents_words_as_the_browser_does_without_the_secret(copilot, monkeypatch):
    monkeypatch.setenv("RATES_API_KEY", SECRET)
    copilot.agent.says(f"Your key is {SECRET}.")
    copilot.say("what is my key?")
    assert copilot.replies == ["Your key is [redacted]."]


def test_a_secret_in_a_tools_result_reaches_neither_the_card_nor_the_agent(copilot, monkeypatch):
    monkeypatch.setenv("RATES_API_KEY", SECRET)
    cui.copilot.frontend_tool(rates_settings)
    try:
        copilot.agent.calls("rates_settings").says("The service is set up.")
        copilot.say("how is the rates service set up?")
    finally:
        cui.copilot.toolbox.remove("rates_settings")

    [card] = copilot.tool_calls
    assert card.status == "complete" and '"currency": "EUR"' in card.text and SECRET not in card.text
    [result] = [message for message in copilot.agent.last_input.messages if message.role == "tool"]
    assert "key=[redacted]" in result.content and SECRET not in result.content
