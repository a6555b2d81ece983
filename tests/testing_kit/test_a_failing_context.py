"""A context function that raises is the app's bug: the server's log names it with its traceback, the agent reads that
this part of the page is not available, and the person's copilot goes on answering (every run used to fail on it,
until the page changed, which the copilot itself could then not do)."""

from __future__ import annotations

import logging

import copilot_ui as cui
from copilot_ui.state import ContextProvider
from tests.testing_kit.dashboard import DashboardState


def _cheapest_city(state: DashboardState) -> str:
    return min(city for city in [state.city] if city)  # none is picked yet: min() of nothing


def test_a_failing_context_leaves_the_copilot_answering(copilot, monkeypatch, caplog):
    broken = ContextProvider(DashboardState, "The cheapest city", _cheapest_city)
    monkeypatch.setattr(cui.copilot, "contexts", [*cui.copilot.contexts, broken])
    copilot.agent.says("You are looking at every order.")

    with caplog.at_level(logging.ERROR, logger="copilot_ui.state"):
        copilot.say("what do I see?")

    assert copilot.replies == ["You are looking at every order."]
    assert copilot.agent.seen_context["The cheapest city"] == "not available: the app could not read it (ValueError)"
    assert copilot.agent.seen_context["The dashboard"]["city"] == ""  # the other contexts as always
    failed = [record for record in caplog.records if "The cheapest city" in record.getMessage()]
    assert failed and failed[0].exc_info is not None  # with the traceback, for the app's developer
