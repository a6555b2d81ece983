"""Shared test set-up. Each ring has its own conftest: core and protocol (no browser), wire (real HTTP), browser."""

from __future__ import annotations

import pytest

from tests.services import postgres_server, postgres_url, redis_url  # noqa: F401 - real services, as fixtures


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The browser ring runs last: the fast rings report first, and need no build."""
    for item in items:
        if "browser" in item.path.parts:
            item.add_marker(pytest.mark.browser)
    items.sort(key=lambda item: "browser" in item.path.parts)
