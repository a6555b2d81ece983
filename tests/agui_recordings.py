"""Recorded AG-UI streams: what a real AG-UI server sent, kept as data under tests/recordings, and played back.

A recording is the server's SSE answer as it arrived, with a comment line before each frame saying
how long after the previous one it came (`: +0.201`), so that a replay keeps the server's pace; SSE
readers skip comments, so the file is also a plain stream (`copilot_ui.protocol.replay` reads it).
The request is sent with the thread id and run id below; a replay puts the ids of the request it
answers in their place, as the server echoes them.

Record (the server running, e.g. the AG-UI repository's server-starter-all-features example on :8211):

    python -m tests.agui_recordings http://127.0.0.1:8211/predictive_state_updates \\
        tests/recordings/server_starter/predictive_state_updates.sse --say "Write a story about a dog."
    python -m tests.agui_recordings http://127.0.0.1:8211/predictive_state_updates \\
        tests/recordings/server_starter/predictive_state_updates.after-tool.sse --after tests/recordings/…/first.sse
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx

RECORDINGS = Path(__file__).parent / "recordings"
RECORDED_THREAD_ID = "thread-recorded"
RECORDED_RUN_ID = "run-recorded"


def recorded_frames(path: Path) -> list[tuple[float, str]]:
    """The frames of a recording: (seconds after the previous frame, the frame's data)."""
    frames: list[tuple[float, str]] = []
    delay, data = 0.0, []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith(": +"):
            delay = float(line[3:])
        elif line.startswith("data:"):
            data.append(line[5:].removeprefix(" "))
        elif not line and data:
            frames.append((delay, "\n".join(data)))
            delay, data = 0.0, []
    if data:
        frames.append((delay, "\n".join(data)))
    return frames


async def played(path: Path, thread_id: str, run_id: str, pace: float = 1.0) -> AsyncIterator[str]:
    """The recording's frames as SSE text, at the recorded pace (times `pace`), with the request's ids."""
    for delay, data in recorded_frames(path):
        if delay * pace > 0:
            await asyncio.sleep(delay * pace)
        data = data.replace(f'"{RECORDED_THREAD_ID}"', json.dumps(thread_id)).replace(f'"{RECORDED_RUN_ID}"', json.dumps(run_id))
        yield f"data: {data}\n\n"


async def record(url: str, body: dict[str, Any], source: str) -> str:
    """POST the RunAgentInput; the answer as a recording: frame by frame with their delays, `source` as a comment."""
    lines = [f": {line}" for line in source.splitlines()]
    headers = {"Content-Type": "application/json", "Accept": "text/event-stream"}
    async with httpx.AsyncClient(timeout=60) as client, client.stream("POST", url, json=body, headers=headers) as answer:
        answer.raise_for_status()
        buffer, last = "", time.monotonic()
        async for text in answer.aiter_text():
            buffer += text.replace("\r\n", "\n")
            while "\n\n" in buffer:
                frame, buffer = buffer.split("\n\n", 1)
                now = time.monotonic()
                lines += [f": +{now - last:.3f}", frame, ""]
                last = now
    return "\n".join(lines) + "\n"


def first_run(say: str, state: dict[str, Any]) -> dict[str, Any]:
    """The RunAgentInput of a first run: the person said `say`."""
    return {
        "threadId": RECORDED_THREAD_ID,
        "runId": RECORDED_RUN_ID,
        "messages": [{"id": "user-1", "role": "user", "content": say}],
        "tools": [],
        "context": [],
        "state": state,
        "forwardedProps": {},
    }


def run_after(first: Path, say: str, state: dict[str, Any], answers: dict[str, str]) -> dict[str, Any]:
    """The RunAgentInput after the recorded first run: its calls, each answered (by tool name, else "done")."""
    calls: dict[str, dict[str, Any]] = {}
    for _, data in recorded_frames(first):
        event = json.loads(data)
        if event["type"] == "TOOL_CALL_START":
            calls[event["toolCallId"]] = {"id": event["toolCallId"], "type": "function"}
            calls[event["toolCallId"]]["function"] = {"name": event["toolCallName"], "arguments": ""}
        elif event["type"] == "TOOL_CALL_ARGS":
            calls[event["toolCallId"]]["function"]["arguments"] += event["delta"]
    body = first_run(say, state)
    body["messages"] += [
        {"id": "assistant-1", "role": "assistant", "toolCalls": list(calls.values())},
        *(
            {"id": f"tool-{n}", "role": "tool", "toolCallId": call_id, "content": answers.get(call["function"]["name"], "done")}
            for n, (call_id, call) in enumerate(calls.items())
        ),
    ]
    return body


def main() -> None:
    parser = argparse.ArgumentParser(description="Record an AG-UI server's answer to a run as a replayable SSE file.")
    parser.add_argument("url")
    parser.add_argument("out", type=Path)
    parser.add_argument("--say", default="Write a story about a dog.")
    parser.add_argument("--state", default='{"document": ""}', help="the run's state (JSON)")
    parser.add_argument("--after", type=Path, help="a recorded first run: record the run after its calls were answered")
    parser.add_argument("--answer", action="append", default=[], help="tool=result for --after (default: done)")
    parser.add_argument("--source", default="", help="where the server comes from (kept as a comment)")
    options = parser.parse_args()
    state = json.loads(options.state)
    answers = dict(answer.split("=", 1) for answer in options.answer)
    body = run_after(options.after, options.say, state, answers) if options.after else first_run(options.say, state)
    source = f"{options.source}\nPOST {options.url}\n{json.dumps(body)}".strip()
    recording = asyncio.run(record(options.url, body, source))
    options.out.parent.mkdir(parents=True, exist_ok=True)
    options.out.write_text(recording, encoding="utf-8")
    print(f"recorded {len(recorded_frames(options.out))} frames into {options.out}")


if __name__ == "__main__":
    main()
