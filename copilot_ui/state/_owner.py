"""Whose conversations these are: the app's logged-in user, or an anonymous owner kept in a signed cookie.

An app with accounts gives the copilot its user id (`cui.copilot.owner = lambda state: ...`, sync or
async, given the copilot's state of the tab, from which `await state.get_state(AuthState)` reads
the app's own). Without it each browser gets a random owner id in a cookie, signed with the app's
secret: a cookie that does not carry a valid signature (crafted, or from another app) is replaced
by a new owner, so nobody can name another owner's id and get their conversations.

The secret is COPILOT_SECRET, else a random one kept in `.copilot/secret` in the app's folder
(created on first use; several workers on one machine share it; several machines need COPILOT_SECRET).
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import os
import secrets
from pathlib import Path
from typing import TYPE_CHECKING

from .._home import home_file
from ..store import ANONYMOUS_OWNER
from .declarations import copilot

if TYPE_CHECKING:
    from ._copilot import CopilotState

logger = logging.getLogger("copilot_ui.state")

SECRET_VARIABLE = "COPILOT_SECRET"
SECRET_FILE = "secret"  # in the copilot's folder (.copilot/)
FORMER_SECRET_FILE = ".copilot_secret"  # where earlier versions kept it: moved in on first use


async def owner_of_tab(state: CopilotState) -> str:
    """Whose conversations the tab shows: the app's user id, or the browser's signed anonymous id (made on first use;
    inside `async with state`).

    The first time the app names a user for a browser that had an anonymous owner, that browser's conversations
    move to the user (and the browser's anonymous owner is let go)."""
    if copilot.owner is not None:
        user = copilot.owner(state)
        user = await user if hasattr(user, "__await__") else user
        if user:
            return await _logged_in(state, f"user:{user}")
    owner = verified_owner(state.owner_token)
    if owner is None:
        owner = new_owner()
        state.owner_token = signed_owner(owner)
    return owner


async def _logged_in(state: CopilotState, user: str) -> str:
    guest = verified_owner(state.owner_token)
    store = await copilot.open_store() if guest is not None else None
    if guest is not None and store is not None:
        try:
            moved = await asyncio.to_thread(store.move, guest, user)
        except Exception:
            logger.exception("moving a browser's conversations to the person who logged in failed")
            return user  # the browser keeps its owner: the move is tried again on the next event
        logger.info("moved %d conversations of a browser to %s, who logged in on it", moved, user)
    if guest is not None:
        state.owner_token = ""
    return user


def signed_owner(owner_id: str) -> str:
    """The cookie value for an owner id: the id and its signature."""
    return f"{owner_id}.{_signature(owner_id)}"


def verified_owner(cookie: str) -> str | None:
    """The owner id in a cookie value, if its signature is right; None otherwise."""
    owner_id, _, signature = (cookie or "").rpartition(".")
    if not owner_id or not hmac.compare_digest(signature, _signature(owner_id)):
        return None
    return owner_id


def new_owner() -> str:
    """A fresh anonymous owner id."""
    return ANONYMOUS_OWNER + secrets.token_urlsafe(16)


def _signature(owner_id: str) -> str:
    return hmac.new(_secret(), owner_id.encode(), hashlib.sha256).hexdigest()[:32]


_SECRET: bytes | None = None


def _secret() -> bytes:
    global _SECRET
    if _SECRET is None:
        secret = os.environ.get(SECRET_VARIABLE) or _secret_from_file(home_file(SECRET_FILE, formerly=FORMER_SECRET_FILE))
        _SECRET = secret.encode()
    return _SECRET


def _secret_from_file(path: Path) -> str:
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        pass
    value = secrets.token_urlsafe(32)
    try:  # created once; a worker that loses the race reads the winner's
        with path.open("x") as file:
            file.write(value)
        path.chmod(0o600)
        return value
    except FileExistsError:
        return path.read_text().strip()
