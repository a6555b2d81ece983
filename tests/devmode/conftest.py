"""The dev-mode ring: the demo served by `reflex run` (dev mode, hot reload) again and again in one folder.

The other rings serve a production build from a fresh state; people type `make run` in the same
checkout day after day and edit their app while it serves. Here a copy of the checkout is served in
dev mode, stopped with Ctrl-C, served again, and edited while a reply streams, with the browser ring's
Chromium and tabs (a fresh context per test, failing on any console or page error).
"""

from tests.browser.conftest import browser, playwright, tabs  # noqa: F401 - the browser ring's fixtures
