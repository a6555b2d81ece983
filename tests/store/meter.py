"""What a store writes to its database, measured where SQLAlchemy hands statements to the driver."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Engine, event

_WRITES = ("INSERT", "UPDATE", "DELETE")


class WriteMeter:
    """Counts the writing statements on an engine, the rows they change and the bytes of their parameters.

    `with WriteMeter(store.engine) as meter: store.save(...)`, then meter.rows, meter.bytes, meter.statements.
    """

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.statements = 0
        self.rows = 0
        self.bytes = 0

    def __enter__(self) -> WriteMeter:
        event.listen(self.engine, "after_cursor_execute", self._executed)
        return self

    def __exit__(self, *exc_info: object) -> None:
        event.remove(self.engine, "after_cursor_execute", self._executed)

    def _executed(self, _conn: Any, cursor: Any, statement: str, parameters: Any, _context: Any, _executemany: bool) -> None:
        if statement.lstrip().upper().startswith(_WRITES):
            self.statements += 1
            self.rows += max(cursor.rowcount, 0)
            self.bytes += _size(parameters)


def _size(value: Any) -> int:
    """Bytes of the values sent: text as UTF-8, binary as is, numbers and flags as 8."""
    if isinstance(value, str):
        return len(value.encode())
    if isinstance(value, bytes | bytearray | memoryview):
        return len(value)
    if isinstance(value, dict):
        return sum(_size(item) for item in value.values())
    if isinstance(value, list | tuple):
        return sum(_size(item) for item in value)
    return 8
