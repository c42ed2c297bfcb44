"""Alembic environment of the classroom store: runs on the connection it is given.

:func:`store.classroom.migrate` passes an open connection in ``config.attributes``;
``alembic -c store/alembic.ini upgrade head`` (with ``CUBE_LAB_DATABASE_URL`` or the
default SQLite file) works too.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine, text

from store.schema import metadata


def _run(connection) -> None:
    context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
    with context.begin_transaction():
        if connection.dialect.name == "postgresql":
            # two app processes starting together migrate one at a time
            connection.execute(text("SELECT pg_advisory_xact_lock(461016)"))
        context.run_migrations()


connection = context.config.attributes.get("connection")
if connection is not None:
    _run(connection)
else:
    from store.classroom import database_url

    engine = create_engine(database_url())
    with engine.begin() as fresh:
        _run(fresh)
    engine.dispose()
