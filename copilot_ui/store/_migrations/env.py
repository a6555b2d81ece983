"""Alembic's environment for the store's own tables (and its own version table, `copilot_alembic_version`).

The store runs it on a connection it holds (`config.attributes["connection"]`). To write the next
revision after changing `_schema.py`, against a database at the newest revision:

    from alembic import command
    from copilot_ui.store._migrate import alembic_config
    command.revision(alembic_config(url="sqlite:///copilot_threads.db"), "what changed", autogenerate=True)
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection, create_engine

from copilot_ui.store._schema import VERSION_TABLE, metadata

config = context.config


def run_migrations(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=metadata,
        version_table=VERSION_TABLE,
        render_as_batch=True,  # SQLite alters a table by copying it
        include_name=lambda name, type_, _parent: type_ != "table" or name in metadata.tables,  # only ours
    )
    with context.begin_transaction():
        context.run_migrations()


connection: Connection | None = config.attributes.get("connection")
if connection is not None:
    run_migrations(connection)
else:
    url = config.get_main_option("sqlalchemy.url")
    if url is None:
        raise ValueError("the store's migrations need a connection or a database URL: alembic_config(url=...)")
    engine = create_engine(url)
    with engine.connect() as own_connection:
        run_migrations(own_connection)
    engine.dispose()
