"""The attachment endpoint over real HTTP on 127.0.0.1: a tab's grant uploads its owner's files and reads them back;
nobody else's grant reads them; a refused file comes back with the reason; an SVG comes back as an inert image."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import quote

import httpx
import pytest

from copilot_ui import attachment_endpoint
from copilot_ui.core import AttachmentRules
from copilot_ui.state import Labels, copilot
from copilot_ui.state._attachment_grants import grant_for, owner_of
from copilot_ui.store import SQLThreadStore

from .._background_server import BackgroundServer
from ..attachment_files import ORDERS_CSV, png

SVG = b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script><rect width="9" height="9"/></svg>'


async def _app(scope, receive, send) -> None:  # the app behind the endpoint: answers what is not the endpoint's
    await send({"type": "http.response.start", "status": 204, "headers": []})
    await send({"type": "http.response.body", "body": b""})


@pytest.fixture
def served(tmp_path) -> Iterator[tuple[str, SQLThreadStore]]:
    store = SQLThreadStore(tmp_path / "threads.db")
    before = copilot.store, copilot.attachments, copilot.labels
    copilot.store = store
    copilot.attachments = AttachmentRules(types=(*AttachmentRules().types, "image/svg+xml"))
    server = BackgroundServer(attachment_endpoint()(_app))
    try:
        yield server.base_url + "/copilot/attachments", store
    finally:
        server.stop()
        copilot.store, copilot.attachments, copilot.labels = before
        store.close()


async def answer_to(scope: dict) -> int:
    """The status the endpoint answers a request of this scope with, called directly (no HTTP server in between)."""
    sent: list[dict] = []

    async def receive() -> dict:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict) -> None:
        sent.append(message)

    await attachment_endpoint()(_app)({"headers": [], **scope}, receive, send)
    return sent[0]["status"]


def upload(url: str, grant: str, name: str, data: bytes, mime: str = "", thread: str = "t1") -> httpx.Response:
    headers = {"X-File-Name": quote(name), "Content-Type": mime or "application/octet-stream"}
    return httpx.post(url, params={"grant": grant, "thread": thread}, content=data, headers=headers)


def test_an_uploaded_image_is_read_back_by_its_owner(served):
    url, _ = served
    alice = grant_for("alice")
    image = png()

    answer = upload(url, alice, "chart.png", image, "image/png")

    assert answer.status_code == 200
    assert answer.json() | {"id": "x"} == {"id": "x", "name": "chart.png", "size": len(image), "image": True}
    back = httpx.get(f"{url}/{answer.json()['id']}", params={"grant": grant_for("alice", "read")})
    assert back.status_code == 200
    assert back.content == image
    assert back.headers["content-type"] == "image/png"
    assert back.headers["x-content-type-options"] == "nosniff"
    assert back.headers["cache-control"] == "private, no-store"  # deleted, it comes back from no cache either
    assert back.headers["referrer-policy"] == "no-referrer"


def test_another_owner_gets_nothing_even_with_the_files_id(served):
    url, _ = served
    answer = upload(url, grant_for("alice"), "orders.csv", ORDERS_CSV, "text/csv")
    file_url = f"{url}/{answer.json()['id']}"

    assert httpx.get(file_url, params={"grant": grant_for("mallory", "read")}).status_code == 404
    assert httpx.get(file_url).status_code == 403
    assert httpx.get(file_url, params={"grant": grant_for("alice", "read", now=0)}).status_code == 403  # expired
    assert httpx.delete(file_url, params={"grant": grant_for("mallory")}).status_code == 404
    assert httpx.get(file_url, params={"grant": grant_for("alice", "read")}).content == ORDERS_CSV


def test_the_read_grant_in_a_files_url_neither_uploads_nor_removes(served):
    url, store = served
    file_id = upload(url, grant_for("alice"), "a.txt", b"hello", "text/plain").json()["id"]
    shown = grant_for("alice", "read")  # as in the URL of a file the tab shows

    assert upload(url, shown, "b.txt", b"more").status_code == 403
    assert httpx.delete(f"{url}/{file_id}", params={"grant": shown}).status_code == 403
    assert httpx.get(f"{url}/{file_id}", params={"grant": grant_for("alice")}).status_code == 403  # a write grant reads not
    assert store.attachment("alice", file_id) is not None


def test_a_grant_cannot_be_made_up(served):
    url, _ = served
    made_up = grant_for("alice").split(".")[0] + ".0123456789abcdef0123456789abcdef"
    assert owner_of(made_up) is None
    assert upload(url, made_up, "a.txt", b"hello").status_code == 403


def test_a_forged_grant_or_address_of_any_characters_is_refused_not_an_error(served):
    url, _ = served
    forged = grant_for("alice").split(".")[0] + ".é"
    assert owner_of(forged) is None
    assert upload(url, forged, "a.txt", b"hello").status_code == 403
    assert httpx.get(f"{url}/att-1", params={"grant": forged}).status_code == 403

    # a query string that is not UTF-8 at all (an HTTP server may pass one on as it came)
    scope = {"type": "http", "method": "GET", "path": "/copilot/attachments/att-1", "query_string": b"grant=\xff\xfe"}
    assert asyncio.run(answer_to(scope)) == 400


def test_a_refused_file_comes_back_with_the_reason(served):
    url, _ = served
    alice = grant_for("alice")

    exe = upload(url, alice, "report.exe", b"MZ" * 10, "application/x-msdownload")
    big = upload(url, alice, "big.png", b"\0" * 12_400_000, "image/png")

    assert (exe.status_code, exe.json()["error"]) == (422, "report.exe: this type of file is not accepted")
    assert (big.status_code, big.json()["error"]) == (422, "big.png is 12.4 MB; the limit is 10 MB")
    # the reason's label and fields too (sizes in bytes), for a page that words it in its own labels
    refusal = {"key": "file_too_big", "fields": {"name": "big.png", "size": 12_400_000, "limit": 10_000_000}}
    assert big.json()["refusal"] == refusal


def test_a_refusal_is_in_the_apps_words(served):
    url, _ = served
    copilot.labels = Labels(file_type_refused="{name} : ce type de fichier n'est pas accepté")

    exe = upload(url, grant_for("alice"), "report.exe", b"MZ" * 10, "application/x-msdownload")

    assert (exe.status_code, exe.json()["error"]) == (422, "report.exe : ce type de fichier n'est pas accepté")


def test_a_conversation_holds_files_up_to_its_limit(served):
    url, _ = served
    copilot.attachments = AttachmentRules(max_conversation_bytes=100_000)
    alice = grant_for("alice")
    assert upload(url, alice, "a.png", png(), "image/png").status_code == 200
    assert upload(url, alice, "b.png", png(), "image/png").status_code == 200

    third = upload(url, alice, "c.png", png(), "image/png")

    assert third.json()["error"] == "c.png: this conversation holds 68 KB of files; the limit is 100 KB"


def test_an_svg_is_served_as_an_image_that_runs_no_script(served):
    url, _ = served
    alice = grant_for("alice")
    answer = upload(url, alice, "logo.svg", SVG, "image/svg+xml")

    back = httpx.get(f"{url}/{answer.json()['id']}", params={"grant": grant_for("alice", "read")})

    assert back.headers["content-type"] == "image/svg+xml"
    assert back.headers["content-security-policy"].startswith("sandbox;")
    assert "script-src" not in back.headers["content-security-policy"]
    assert back.headers["x-content-type-options"] == "nosniff"
    assert back.headers["content-disposition"].startswith("attachment;")  # opened by its URL, it downloads


def test_only_raster_images_open_in_the_browser(served):
    url, _ = served
    copilot.attachments = AttachmentRules(types=("image/*",))
    alice, read = grant_for("alice"), grant_for("alice", "read")

    png_id = upload(url, alice, "chart.png", png(), "image/png").json()["id"]
    smuggled = upload(url, alice, "page", b"<script>alert(1)</script>", "image/png, text/html")

    assert httpx.get(f"{url}/{png_id}", params={"grant": read}).headers["content-disposition"].startswith("inline;")
    assert (smuggled.status_code, smuggled.json()["error"]) == (422, "page: this type of file is not accepted")


def test_a_document_downloads_rather_than_opens(served):
    url, _ = served
    alice = grant_for("alice")
    answer = upload(url, alice, "notes.md", b"# hi", "")

    back = httpx.get(f"{url}/{answer.json()['id']}", params={"grant": grant_for("alice", "read")})

    assert back.headers["content-type"] == "text/markdown"
    assert back.headers["content-disposition"] == "attachment; filename*=UTF-8''notes.md"


def test_a_file_removed_before_sending_is_forgotten(served):
    url, store = served
    alice = grant_for("alice")
    file_id = upload(url, alice, "a.txt", b"hello", "text/plain").json()["id"]

    assert httpx.delete(f"{url}/{file_id}", params={"grant": alice}).status_code == 200

    assert store.attachment("alice", file_id) is None


def test_other_paths_go_to_the_app(served):
    url, _ = served
    assert httpx.get(url.replace("/copilot/attachments", "/elsewhere")).status_code == 204


def test_uploads_at_once_do_not_pass_the_conversations_limit_together(served):
    url, store = served
    copilot.attachments = AttachmentRules(max_conversation_bytes=3_000, max_files=20)
    alice = grant_for("alice")

    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(lambda n: upload(url, alice, f"{n}.txt", b"x" * 1_000, "text/plain"), range(8)))

    assert sorted(answer.status_code for answer in answers) == [200] * 3 + [422] * 5
    assert store.held_bytes("alice", "t1") == 3_000


def test_files_waiting_to_be_sent_are_capped_and_an_empty_file_is_refused(served):
    url, _ = served
    copilot.attachments = AttachmentRules(max_files=2)
    alice = grant_for("alice")
    assert [upload(url, alice, f"{n}.txt", b"x", "text/plain").status_code for n in range(4)] == [200] * 4

    fifth = upload(url, alice, "e.txt", b"x", "text/plain")
    empty = upload(url, grant_for("bob"), "empty.txt", b"", "text/plain")

    assert fifth.json()["error"] == "e.txt: 4 files are waiting to be sent already; send them or remove some first"
    assert (empty.status_code, empty.json()["error"]) == (422, "empty.txt is empty")


def test_a_file_is_kept_under_its_name_as_shown(served):
    url, store = served
    alice = grant_for("alice")

    answer = upload(url, alice, "orders\n\x1b[31m\u202e" + "x" * 300 + ".csv", ORDERS_CSV, "application/octet-stream")

    kept, _ = store.attachment("alice", answer.json()["id"])
    assert kept.name == answer.json()["name"] == "orders[31m" + "x" * 105 + "….csv"
    assert kept.mime_type == "text/csv"  # its type read from the name it came with
