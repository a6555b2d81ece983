"""What a file attached to a message costs: its upload and download over HTTP, and putting it in the agent's input.

- Upload and download of a 10 MB file through the attachment endpoint on 127.0.0.1 (uvicorn, a SQLite store):
  median of 5.
- Putting the bytes of 5 files of 1 MB into a run's messages (read from the store, base64), and the size of the
  RunAgentInput as JSON: every run of the agent sends the conversation's files again (AG-UI runs are stateless).
- What the browser's state carries per file: the entry in the person's message item (the bytes never go there).
"""

from __future__ import annotations

import asyncio
import json
import os
import statistics
import tempfile
import time
from pathlib import Path

import httpx
from ag_ui.core import RunAgentInput

from copilot_ui import attachment_endpoint
from copilot_ui.core import Thread
from copilot_ui.core._attachments import with_attachment_bytes
from copilot_ui.state import copilot
from copilot_ui.state._attachment_grants import grant_for
from copilot_ui.state.view._attachments import files_field
from copilot_ui.store import SQLThreadStore
from tests._background_server import BackgroundServer

MB = 1_000_000


async def _nothing(scope, receive, send) -> None:
    await send({"type": "http.response.start", "status": 204, "headers": []})
    await send({"type": "http.response.body", "body": b""})


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        store = SQLThreadStore(Path(folder) / "threads.db")
        copilot.store = store
        server = BackgroundServer(attachment_endpoint()(_nothing))
        try:
            upload, download = transfer_times(server.base_url + "/copilot/attachments", 10 * MB)
            print(f"attachment_upload_10MB: {upload * 1e3:.0f} ms")
            print(f"attachment_download_10MB: {download * 1e3:.0f} ms")
            seconds, size, item = run_input_cost(store, 5, MB)
            print(f"attachment_run_input_5x1MB: {seconds * 1e3:.0f} ms")
            print(f"attachment_run_input_json_5x1MB: {size / MB:.1f} MB")
            print(f"attachment_state_bytes_per_file: {item} B")
        finally:
            server.stop()
            store.close()


def transfer_times(url: str, size: int) -> tuple[float, float]:
    grant, data = grant_for("bench"), os.urandom(size)
    uploads, downloads = [], []
    with httpx.Client(timeout=60) as client:
        for _ in range(5):
            started = time.perf_counter()
            answer = client.post(url, params={"grant": grant}, content=data, headers={"X-File-Name": "big.png"})
            uploads.append(time.perf_counter() - started)
            answer.raise_for_status()
            started = time.perf_counter()
            back = client.get(f"{url}/{answer.json()['id']}", params={"grant": grant_for("bench", "read")})
            downloads.append(time.perf_counter() - started)
            assert back.content == data
    return statistics.median(uploads), statistics.median(downloads)


def run_input_cost(store: SQLThreadStore, count: int, size: int) -> tuple[float, int, int]:
    thread = Thread(store.create("bench", agent="default").id)
    uploaded = [store.add_attachment("bench", f"page{n}.pdf", "application/pdf", os.urandom(size)) for n in range(count)]
    message = thread.add_user_message("read these", attachments=store.attach("bench", [a.id for a in uploaded], thread.id))

    async def read(ids: list[str]) -> dict[str, bytes]:
        return await asyncio.to_thread(store.attachment_bytes, "bench", ids)

    started = time.perf_counter()
    messages = asyncio.run(with_attachment_bytes(thread.messages, read))
    body = RunAgentInput(thread_id=thread.id, run_id="r", messages=messages, tools=[], context=[], state={}, forwarded_props={})
    size_json = len(body.model_dump_json(by_alias=True))
    seconds = time.perf_counter() - started
    return seconds, size_json, len(json.dumps(files_field(message)["f"][0]))


if __name__ == "__main__":
    main()
