"""Shared test set-up. Each ring has its own conftest: core and protocol (no browser), wire (real HTTP), browser,
embedding (copilot_ui installed into a new app, as the README says)."""

from __future__ import annotations

import pytest

from tests.services import postgres_server, postgres_url, redis_url  # noqa: F401 - real services, as fixtures

pytest_plugins = ["copilot_ui.testing"]  # the testing kit's fixtures (`copilot`), as an app's conftest.py loads them


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The browser ring runs after the fast rings (they report first, and need no build), the embedding ring last."""
    for item in items:
        if "browser" in item.path.parts:
            item.add_marker(pytest.mark.browser)
        if "embedding" in item.path.parts:
            item.add_marker(pytest.mark.embedding)
            item.add_marker(pytest.mark.browser)
    items.sort(key=lambda item: ("browser" in item.path.parts) + 2 * ("embedding" in item.path.parts))
