"""Shared test set-up. Each ring has its own conftest: core and protocol (no browser), wire (real HTTP), browser,
embedding (copilot_ui installed into a new app, as the README says)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.services import postgres_server, postgres_url, redis_url  # noqa: F401 - real services, as fixtures

pytest_plugins = ["copilot_ui.testing"]  # the testing kit's fixtures (`copilot`), as an app's conftest.py loads them


# The rings that serve an app run in workers of their own (`make test` runs pytest-xdist's workers, scheduled so):
# their servings are built once per worker, in build folders of that worker. The browser ring, the longest, is split
# in two groups of about as many tests; the other rings' tests go to whichever worker is free.
_SERVING_RINGS = ("embedding", "appdev", "devmode", "load")
_BROWSER_GROUPS = 2


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The browser ring runs after the fast rings (they report first, and need no build), the embedding ring last."""
    for item in items:
        if "browser" in item.path.parts:
            item.add_marker(pytest.mark.browser)
        if "embedding" in item.path.parts:
            item.add_marker(pytest.mark.embedding)
            item.add_marker(pytest.mark.browser)
    items.sort(key=lambda item: ("browser" in item.path.parts) + 2 * ("embedding" in item.path.parts))


def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object:
    """pytest-xdist's scheduler by scope, the scope of a test its group: a serving ring, a half of the browser ring, or
    the test itself. (Its own `--dist loadgroup` reads marks it cannot see with pytest 9.)"""
    from xdist.scheduler import LoadScopeScheduling

    browser_group = _balanced(_tests_per_module(Path(__file__).parent / "browser"), _BROWSER_GROUPS)

    class ByRing(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            parts = nodeid.split("::")[0].split("/")
            if "browser" in parts:
                return f"browser-{browser_group.get(parts[-1], 0)}"
            return next((ring for ring in _SERVING_RINGS if ring in parts), nodeid)

    return ByRing(config, log)


def _tests_per_module(folder: Path) -> dict[str, int]:
    return {
        path.name: len(re.findall(r"^(?:async )?def test_", path.read_text(), re.MULTILINE)) for path in folder.glob("test_*.py")
    }


def _balanced(weights: dict[str, int], groups: int) -> dict[str, int]:
    """Each name in one of `groups` groups, the heaviest first into the lightest group."""
    loads, group_of = [0] * groups, {}
    for name in sorted(weights, key=lambda name: (-weights[name], name)):
        lightest = loads.index(min(loads))
        group_of[name], loads[lightest] = lightest, loads[lightest] + weights[name]
    return group_of
