"""Reflex configuration of the demo app (copilot_ui/copilot_ui.py)."""

import os

import reflex as rx

# bun cannot always be downloaded (offline machines, closed networks); npm comes with the Node in .venv.
os.environ.setdefault("REFLEX_USE_NPM", "1")
# Several workers on Redis: each keeps the state of the tabs it serves in memory while no other worker asks for it
# (Reflex's opportunistic lock): a streaming reply changes a tab's state many times a second (README: several workers).
os.environ.setdefault("REFLEX_OPLOCK_ENABLED", "true")

config = rx.Config(
    # Several workers share state through Redis when REDIS_URL (or REFLEX_REDIS_URL) is set.
    redis_url=os.environ.get("REDIS_URL") or None,
    app_name="copilot_ui",
    telemetry_enabled=False,
    plugins=[rx.plugins.RadixThemesPlugin(theme=rx.theme(accent_color="indigo"))],
    disable_plugins=[rx.plugins.SitemapPlugin],
    # The badge sits over the sidebar's Send button; the README credits Reflex instead.
    show_built_with_reflex=False,
)
