"""How long anonymous owners' conversations are kept: COPILOT_RETENTION_DAYS (30 by default) since they last changed.

A browser without an account gets an anonymous owner (a signed cookie); once that cookie is gone
nobody can open its conversations again, so they are pruned: by `python -m copilot_ui threads prune`,
and by the server itself at most once a day. People with accounts keep theirs.
"""

from __future__ import annotations

import os
from datetime import UTC, datetime, timedelta

from ._base import ANONYMOUS_OWNER, ThreadStore

RETENTION_VARIABLE = "COPILOT_RETENTION_DAYS"
DEFAULT_RETENTION_DAYS = 30.0


def retention_days(days: float | None = None) -> float:
    """The retention period: `days`, else COPILOT_RETENTION_DAYS, else 30; ValueError in words for a bad value."""
    if days is None:
        raw = os.environ.get(RETENTION_VARIABLE, "").strip()
        try:
            days = float(raw) if raw else DEFAULT_RETENTION_DAYS
        except ValueError:
            raise ValueError(f"{RETENTION_VARIABLE} must be a number of days, not {raw!r}") from None
    if not days > 0:
        raise ValueError(f"the retention period must be more than 0 days, not {days:g}")
    return days


def prune_anonymous(store: ThreadStore, days: float) -> int:
    """Forget anonymous owners' conversations unchanged for `days`; how many (blocking: call it off the event loop)."""
    return store.prune(owner_prefix=ANONYMOUS_OWNER, unchanged_since=datetime.now(UTC) - timedelta(days=days))
