"""The composer's files and a sent message's files (cui_attach.jsx): paperclip, drop, paste; thumbnails and chips.

Which files, and how big, is the app's choice (`cui.copilot.attachments`, an AttachmentRules; None: no files); the
paperclip shows once the app serves the attachment endpoint (`cui.attachment_endpoint()`).
"""

from __future__ import annotations

import reflex as rx
from reflex.event import no_args_event_spec

from ..core import AttachmentRules
from ..state import CopilotState, copilot
from ..state._attachments import AttachmentsState, attachment_endpoint_declared
from ..state.view import Item
from ._looks import words

_RUNTIME = rx.asset("cui_attach.jsx", shared=True)


class CuiAttach(rx.Component):
    """In the composer's form: the paperclip, the files taken (uploaded at once), the reasons a file was refused."""

    library = _RUNTIME.importable_path
    tag = "CuiAttach"

    path: rx.Var[str]  # the attachment endpoint's URL path
    grant: rx.Var[str]  # the tab's upload grant (its owner's, signed by the server)
    read_grant: rx.Var[str]  # the grant that shows the files taken (thumbnails)
    thread: rx.Var[str]  # the conversation the files are uploaded for
    accept: rx.Var[str]  # the file types taken, as the file picker's `accept` names them
    max_file_bytes: rx.Var[int]  # a larger file is refused, with the reason
    max_files: rx.Var[int]  # files one message takes at most
    words: rx.Var[dict]  # the layout's labels (cui.Labels) the component says
    renew_in: rx.Var[int]  # seconds until the tab asks for new grants
    on_renew: rx.EventHandler[no_args_event_spec]  # no grant (a first load, its state was lost), or they near expiry


class CuiFiles(rx.Component):
    """A sent message's files: images as thumbnails, other files as chips (name and size) that download."""

    library = _RUNTIME.importable_path
    tag = "CuiFiles"

    files: rx.Var[list]  # the sent message's files: id, name, size, image or not
    path: rx.Var[str]  # the attachment endpoint's URL path
    grant: rx.Var[str]  # the tab's read grant (until it has one, only the names show)
    words: rx.Var[dict]  # the layout's labels (cui.Labels) the component says


def composer_files() -> rx.Component:
    """The composer's part for files (nothing when the app takes none, or serves no attachment endpoint)."""
    rules: AttachmentRules | None = copilot.attachments
    if rules is None or not attachment_endpoint_declared():
        return rx.fragment()
    return CuiAttach.create(
        path=AttachmentsState.path,
        grant=AttachmentsState.grant,
        read_grant=AttachmentsState.read_grant,
        renew_in=AttachmentsState.renew_in,
        thread=CopilotState.thread_id,
        accept=rules.accept_attribute(),
        max_file_bytes=rules.max_file_bytes,
        max_files=rules.max_files,
        words=_file_words(),
        on_renew=AttachmentsState.start,
    )


def message_files(item: rx.vars.ObjectVar[Item]) -> rx.Component:
    """The files of a person's message item (its "f" field), if it has some."""
    return rx.cond(
        item["f"],
        CuiFiles.create(
            files=item["f"].to(list), path=AttachmentsState.path, grant=AttachmentsState.read_grant, words=_file_words()
        ),
    )


_FILE_WORDS = (
    "attach_files",
    "attached_files",
    "sent_files",
    "remove_file",
    "uploading",
    "one_byte",
    "bytes_size",
    "kilobytes",
    "megabytes",
    "file_type_refused",
    "file_empty",
    "file_too_big",
    "too_many_files",
    "conversation_full",
    "too_many_unsent",
    "upload_permission_renewed",
    "upload_failed",
    "wait_for_uploads",
)


def _file_words() -> dict[str, str]:
    """The copilot's words about files, for the browser (the layout's labels, else the app's)."""
    said = words()
    return {key: getattr(said, key) for key in _FILE_WORDS}
