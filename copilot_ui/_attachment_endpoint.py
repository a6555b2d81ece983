"""Where the composer's files go up and come back: the attachment endpoint, on the app's own backend.

    app = rx.App(api_transformer=[cui.content_security_policy(), cui.attachment_endpoint()])

Without it the composer takes no files. Each file travels in an HTTP request of its own, never through the state's
websocket (a state change is resent whole, and a background event would hold the tab's lock for the upload):

    POST   /copilot/attachments?grant=…&thread=…   the file's bytes as the body; X-File-Name: its name (URI-encoded)
                                                  → {"id", "name", "size", "image"} or 4xx {"error": the reason};
                                                    a refused file's 422 names the reason's label and fields too
                                                    ("refusal": {"key", "fields"}: the page words it in its labels)
    GET    /copilot/attachments/<id>?grant=…      the file, for its owner only (a read grant)
    DELETE /copilot/attachments/<id>?grant=…      forget a file not sent yet (the person removed it)

Every request brings one of the tab's grants (see state._attachment_grants): a read grant to read, a write grant
to upload or remove. A file is its owner's, and nobody else's grant reads, attaches or deletes it. A file comes
back as data, never as a page: `nosniff`, `Content-Security-Policy: sandbox` (an SVG opened by its URL runs no
script), and every type but PNG, JPEG, GIF and WebP images downloads (`Content-Disposition: attachment`); the
copilot shows images with <img>, which runs no script either.

Why not Reflex's own upload (`rx.upload`): it takes files from its drop zone only (the composer takes them from a
paste and from a drop anywhere on the panel too), runs its handler as an event of the tab's state, and serves every
uploaded file from one public folder with no check of whose it is.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from urllib.parse import parse_qs, quote, unquote

from ._checks import keywords_checked
from .core import Attachment, AttachmentRules, Refusal
from .core._attachments import shown_name
from .protocol._json import JSON
from .server._endpoint_access import ASGIApp, Receive, Scope, Send, read_body
from .store import OverLimit

DEFAULT_PATH = "/copilot/attachments"
_NAME_LIMIT = 255

logger = logging.getLogger("copilot_ui")


@keywords_checked("cui.attachment_endpoint")
def attachment_endpoint(path: str = DEFAULT_PATH) -> Callable[[ASGIApp], ASGIApp]:
    """An `api_transformer` for `rx.App` that lets the composer take files (see `cui.copilot.attachments` for which)."""
    if not path.startswith("/") or path.endswith("/"):
        raise ValueError(f"the attachment endpoint's path must start with / and not end with one, e.g. {DEFAULT_PATH!r}")
    from .state._attachments import declare_attachment_endpoint

    declare_attachment_endpoint()

    def serve_attachments(app: ASGIApp) -> ASGIApp:
        from .state._attachments import serve_attachments_at

        serve_attachments_at(path)
        return _Attachments(path, app)

    return serve_attachments


class _Attachments:
    """The endpoint at its path; every other request goes to the app."""

    def __init__(self, path: str, app: ASGIApp) -> None:
        self.path, self.app = path, app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        where = scope.get("path", "") if scope["type"] == "http" else None
        if where is None or (where != self.path and not where.startswith(self.path + "/")):
            await self.app(scope, receive, send)
            return
        from .state._attachment_grants import owner_of

        try:
            query = {key: values[0] for key, values in parse_qs(scope.get("query_string", b"").decode()).items()}
        except UnicodeDecodeError:
            await _json(send, 400, {"error": "The address of this request is not valid."})
            return
        method = scope["method"]
        owner = owner_of(query.get("grant", ""), "read" if method in ("GET", "HEAD") else "write")
        if owner is None:
            await _json(send, 403, {"error": "This page may no longer attach or show files: reload it."})
        elif where == self.path and method == "POST":
            await _upload(scope, receive, send, owner, query.get("thread", ""))
        elif where != self.path and method in ("GET", "HEAD"):
            await _download(send, owner, where[len(self.path) + 1 :], head=method == "HEAD")
        elif where != self.path and method == "DELETE":
            await _remove(send, owner, where[len(self.path) + 1 :])
        else:
            await _json(send, 405, {"error": "not a method of the attachment endpoint"})


async def _upload(scope: Scope, receive: Receive, send: Send, owner: str, thread_id: str) -> None:
    from .state.declarations import copilot

    rules = copilot.attachments
    if rules is None:
        await _json(send, 404, {"error": "This copilot takes no files."})
        return
    headers = {key.decode("latin-1").lower(): value.decode("latin-1") for key, value in scope.get("headers", [])}
    given_name = unquote(headers.get("x-file-name", ""))
    name = shown_name(given_name)  # kept as shown: printable characters on one line, bounded
    mime_type = rules.mime_type_of(given_name, headers.get("content-type", ""))
    declared = int(headers["content-length"]) if headers.get("content-length", "").isdigit() else None
    refusal = rules.refusal(name, mime_type, declared or 1)  # the type, a size announced over the limit: before reading
    data = None if refusal else await read_body(receive, rules.max_file_bytes)
    if refusal is None:
        refusal = rules.refusal(name, mime_type, rules.max_file_bytes + 1 if data is None else len(data))
    kept = refusal or await asyncio.to_thread(_keep, owner, name, mime_type, data or b"", thread_id[:_NAME_LIMIT], rules)
    if isinstance(kept, Refusal):
        from .state.declarations import copilot

        said = {"error": kept.worded(copilot.labels), "refusal": {"key": kept.key, "fields": kept.fields}}
        await _json(send, 422, said)
        return
    attachment = kept
    await _json(send, 200, {"id": attachment.id, "name": name, "size": attachment.size, "image": attachment.is_image})


def _keep(owner: str, name: str, mime_type: str, data: bytes, thread_id: str, rules: AttachmentRules) -> Attachment | Refusal:
    """Keep the file, or say why not: the limits are checked as it is kept (uploads at once do not pass them together)."""
    from .state.declarations import attachment_store

    try:
        return attachment_store().add_attachment(
            owner,
            name,
            mime_type,
            data,
            thread_id=thread_id,
            max_bytes=rules.max_conversation_bytes,
            max_unsent=rules.max_unsent_files,
        )
    except OverLimit as over:
        if over.limit == "unsent":
            return rules.unsent_refusal(name, over.held)
        # (the store's count said full where the rules' did not)
        full = Refusal("conversation_full", {"name": name, "held": over.held, "limit": rules.max_conversation_bytes})
        return rules.refusal(name, mime_type, len(data), held=over.held) or full


async def _download(send: Send, owner: str, attachment_id: str, *, head: bool) -> None:
    from .state.declarations import attachment_store

    found = await asyncio.to_thread(lambda: attachment_store().attachment(owner, attachment_id))  # (it may open the store)
    if found is None:
        await _json(send, 404, {"error": "no such file"})
        return
    attachment, data = found
    disposition = "inline" if attachment.opens_inline else "attachment"
    headers = [
        (b"content-type", attachment.mime_type.encode("latin-1", "replace")),
        (b"content-length", str(len(data)).encode()),
        (b"content-disposition", f"{disposition}; filename*=UTF-8''{quote(attachment.name)}".encode()),
        (b"content-security-policy", b"sandbox; default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'"),
        (b"x-content-type-options", b"nosniff"),
        (b"cache-control", b"private, no-store"),  # a deleted file must not come back from a cache
        (b"cross-origin-resource-policy", b"same-site"),
        (b"referrer-policy", b"no-referrer"),  # the grant in this URL goes nowhere else
    ]
    await send({"type": "http.response.start", "status": 200, "headers": headers})
    await send({"type": "http.response.body", "body": b"" if head else data})


async def _remove(send: Send, owner: str, attachment_id: str) -> None:
    from .state.declarations import attachment_store

    removed = await asyncio.to_thread(lambda: attachment_store().remove_unsent(owner, attachment_id))
    await _json(send, 200 if removed else 404, {"removed": removed})


async def _json(send: Send, status: int, value: JSON) -> None:
    body = json.dumps(value).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    headers.append((b"cache-control", b"no-store"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
