"""The store's Alembic migrations: `env.py` and `versions/`, run by `copilot_ui.store._migrate.upgrade`."""
