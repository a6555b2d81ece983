import reflex as rx

config = rx.Config(app_name="helpdesk", telemetry_enabled=False, disable_plugins=[rx.plugins.SitemapPlugin])
