"""The embedding ring: copilot_ui installed into an app of someone else's, as its README tells them to.

It serves and drives apps in Chromium the way the browser ring does, with the browser ring's Chromium
and tabs (a fresh context per test, failing on any console error or page error).
"""

from tests.browser.conftest import browser, playwright, tabs  # noqa: F401 - the browser ring's fixtures
