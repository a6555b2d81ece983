"""The composer's files, on the server: the tab's grant to upload and read them, and attaching them to a message.

The bytes never travel through the state's websocket: the browser uploads each file to the attachment endpoint
(`copilot_ui._attachment_endpoint`, over HTTP, with the tab's grant) and gets its id; the message sent from the
composer names the ids (the form's "attachments" field), and `declarations.attached` gives the message those of them
that are the owner's unsent files (or already this conversation's), at most as many as a message takes.
"""

from __future__ import annotations

import reflex as rx

from ._attachment_grants import GRANT_SECONDS, grant_for
from ._copilot import CopilotState
from ._owner import owner_of_tab
from .declarations import copilot

_SERVED = {"path": ""}  # where the attachment endpoint answers in this process ("": nowhere)
_DECLARED = {"endpoint": False}  # the app asked for the endpoint (known when its pages are made, before it is mounted)


class AttachmentsState(rx.State):
    """What the tab needs to upload and show files: where, and its grant (empty: the composer takes no files)."""

    path: str = ""
    grant: str = ""  # uploads and removes the owner's files
    read_grant: str = ""  # reads them (in the URL of each file shown)
    renew_in: int = 0  # seconds after which the tab asks for new grants (an hour before these expire)

    @rx.event
    async def start(self) -> None:
        """The composer is on the page (or its connection is back, or its grants near their expiry, or one was
        refused, or a message could not take its files): where to upload, and fresh grants for the tab's owner now."""
        path = _SERVED["path"] if copilot.attachments is not None else ""
        owner = await owner_of_tab(await self.get_state(CopilotState)) if path else ""
        self.path, self.grant = path, grant_for(owner) if path else ""
        self.read_grant = grant_for(owner, "read") if path else ""
        self.renew_in = max(60, GRANT_SECONDS - 3600) if path else 0


def declare_attachment_endpoint() -> None:
    """The app made `cui.attachment_endpoint()`: its pages show the paperclip."""
    _DECLARED["endpoint"] = True


def attachment_endpoint_declared() -> bool:
    """Whether the app made `cui.attachment_endpoint()` (without it the composer takes no files)."""
    return _DECLARED["endpoint"]


def serve_attachments_at(path: str) -> None:
    """The attachment endpoint answers at this path (called when the app's backend mounts it)."""
    _SERVED["path"] = path
