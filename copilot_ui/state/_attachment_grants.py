"""A tab's permissions on its owner's attachments: the owner and an expiry, signed with the app's secret.

Two kinds: a write grant uploads and removes files (the composer keeps it); a read grant reads them (it is in the
URL of every file shown, which a person may copy: it reads, by their ids, only the owner's files, and writes nothing).

The tab gets it from its state (which knows the owner, whether the app's user or the browser's anonymous owner) and
puts it in the URLs of its uploads and of the files it shows. The attachment endpoint serves a file only to a grant
of the file's owner that has not expired: a URL copied into another browser shows the file to nobody else once the
grant expires, and never after its owner's file is deleted; a grant cannot be made for another owner without the
secret (COPILOT_SECRET, see _owner).
"""

from __future__ import annotations

import base64
import hmac
import json
import time
from typing import Literal

from ._owner import _signature

Kind = Literal["read", "write"]

GRANT_SECONDS = 12 * 3600  # a tab gets a new grant each time its composer mounts (a page load)
_PURPOSE = "attachments:"  # a grant's signature signs nothing else (an owner cookie's does not pass for one)


def grant_for(owner: str, kind: Kind = "write", now: float | None = None) -> str:
    """A grant of this kind to `owner`'s attachments, valid for GRANT_SECONDS."""
    expires = int((time.time() if now is None else now) + GRANT_SECONDS)
    payload = base64.urlsafe_b64encode(json.dumps([owner, expires]).encode()).decode().rstrip("=")
    return f"{payload}.{_signature(f'{_PURPOSE}{kind}:{payload}')}"


def owner_of(grant: str, kind: Kind = "write", now: float | None = None) -> str | None:
    """The owner a grant of this kind was given to, if its signature is right and it has not expired; else None."""
    payload, _, signature = (grant or "").partition(".")
    expected = _signature(f"{_PURPOSE}{kind}:{payload}").encode()
    # bytes: compare_digest refuses a str that is not ASCII (a forged grant would raise instead of being refused)
    if not payload or not hmac.compare_digest(signature.encode("utf-8", "surrogateescape"), expected):
        return None
    try:
        owner, expires = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    except (ValueError, TypeError):
        return None
    if not isinstance(owner, str) or not isinstance(expires, int) or expires < (time.time() if now is None else now):
        return None
    return owner
