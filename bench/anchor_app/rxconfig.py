"""Reflex configuration of the anchor app (bench/anchor_app/anchor_chat): a plain Reflex chat, no copilot."""

import reflex as rx

config = rx.Config(
    app_name="anchor_chat",
    telemetry_enabled=False,
    plugins=[rx.plugins.RadixThemesPlugin()],
    disable_plugins=[rx.plugins.SitemapPlugin],
    show_built_with_reflex=False,
)
