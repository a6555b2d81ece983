"""Shared test set-up. Each ring has its own conftest: core and protocol (no browser), wire (real HTTP), browser,
embedding (copilot_ui installed into a new app, as the README says)."""

from __future__ import annotations

import pytest

from tests.services import postgres_server, postgres_url, redis_url  # noqa: F401 - real services, as fixtures

pytest_plugins = ["copilot_ui.testing"]  # the testing kit's fixtures (`copilot`), as an app's conftest.py loads them


# The rings that serve an app run in workers of their own (`make test` runs pytest-xdist's workers, grouped so):
# their servings are built once per worker, in build folders of that worker. The browser ring, the longest, is split
# in two groups of about as many tests; the other rings share the workers left.
_SERVING_RINGS = ("embedding", "appdev", "devmode", "load")
_BROWSER_GROUPS = 2


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The browser ring runs after the fast rings (they report first, and need no build), the embedding ring last."""
    browser_modules: dict[str, int] = {}
    for item in items:
        if "browser" in item.path.parts:
            item.add_marker(pytest.mark.browser)
            browser_modules[item.path.name] = browser_modules.get(item.path.name, 0) + 1
        if "embedding" in item.path.parts:
            item.add_marker(pytest.mark.embedding)
            item.add_marker(pytest.mark.browser)
        ring = next((ring for ring in _SERVING_RINGS if ring in item.path.parts), None)
        if ring is not None:
            item.add_marker(pytest.mark.xdist_group(ring))
    group_of = _balanced(browser_modules, _BROWSER_GROUPS)
    for item in items:
        if "browser" in item.path.parts:
            item.add_marker(pytest.mark.xdist_group(f"browser-{group_of[item.path.name]}"))
    items.sort(key=lambda item: ("browser" in item.path.parts) + 2 * ("embedding" in item.path.parts))


def _balanced(weights: dict[str, int], groups: int) -> dict[str, int]:
    """Each name in one of `groups` groups, the heaviest first into the lightest group."""
    loads, group_of = [0] * groups, {}
    for name in sorted(weights, key=lambda name: (-weights[name], name)):
        lightest = loads.index(min(loads))
        group_of[name], loads[lightest] = lightest, loads[lightest] + weights[name]
    return group_of
