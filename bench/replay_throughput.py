"""Replay throughput of copilot_ui's AG-UI pipeline, against the reference TypeScript client.

What it measures, on one deterministic 10,000-event stream (JSONL, camelCase, one event a line:
runs of text deltas, tool-call argument deltas and state deltas inside one RUN_STARTED … RUN_FINISHED):

- replay_events_per_s: parse + verify + apply in copilot_ui, i.e. a fresh EventPipeline(Thread())
  fed every line with feed_frame; the frames are read into memory first and only the feeding is
  timed; best of 5.
- replay_reference_ts_events_per_s: @ag-ui/client@1.0.0 on the same stream, in Node: an
  AbstractAgent whose run() emits the events, driven by runAgent() (schema enforcement, chunk
  expansion, verification, applying to messages and state); best of 5 after a warm-up. The client
  is installed with the venv's npm into bench/.work/ (reused when present), and the messages and
  state it ends with must match copilot_ui's, else the benchmark fails.
- replay_overhead_memory_*: with tracemalloc, the peak traced memory of a replay of 10k, 50k and
  100k events minus what is still allocated when it ends (the thread is still referenced then), i.e.
  what the pipeline needs beyond the thread it builds.

Run from the project root: .venv/bin/python -m bench.replay_throughput
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any

from copilot_ui.protocol import AGUIThread, EventPipeline

BENCH = Path(__file__).resolve().parent
WORK = BENCH / ".work"
CLIENT_DIR = WORK / "agui-client-1.0.0"
EVENTS = 10_000
REPEATS = 5
MEMORY_SIZES = (10_000, 50_000, 100_000)
IDS = {"threadId": "thread-bench", "runId": "run-bench"}


def _text_message(turn: int, deltas: int) -> list[dict[str, Any]]:
    message_id = f"msg-{turn}"
    contents = [{"type": "TEXT_MESSAGE_CONTENT", "messageId": message_id, "delta": f" word{turn}.{i}"} for i in range(deltas)]
    start = {"type": "TEXT_MESSAGE_START", "messageId": message_id, "role": "assistant"}
    return [start, *contents, {"type": "TEXT_MESSAGE_END", "messageId": message_id}]


def _tool_call(turn: int, deltas: int) -> list[dict[str, Any]]:
    call_id = f"call-{turn}"
    arguments = json.dumps({"query": f"topic number {turn} " * 3, "limit": turn % 50, "filters": {"lang": "en", "recent": True}})
    pieces = [arguments[len(arguments) * i // deltas : len(arguments) * (i + 1) // deltas] for i in range(deltas)]
    start = {"type": "TOOL_CALL_START", "toolCallId": call_id, "toolCallName": "search", "parentMessageId": f"msg-{turn}"}
    args = [{"type": "TOOL_CALL_ARGS", "toolCallId": call_id, "delta": piece} for piece in pieces]
    return [start, *args, {"type": "TOOL_CALL_END", "toolCallId": call_id}]


def _state_delta(step: int, items: list[int], rng: random.Random) -> dict[str, Any]:
    operations: list[dict[str, Any]] = [{"op": "replace", "path": "/counter", "value": step}]
    if rng.random() < 0.5:
        if len(items) < 4:
            operations.append({"op": "add", "path": "/items/-", "value": {"id": step, "label": f"item {step}"}})
            items.append(step)
        else:
            operations.append({"op": "remove", "path": "/items/0"})
            items.pop(0)
    return {"type": "STATE_DELTA", "delta": operations}


def make_stream(n: int = EVENTS, seed: int = 7) -> list[str]:
    """A valid n-event AG-UI stream as JSONL lines (n >= 3): turns of text, a tool call and state deltas."""
    rng = random.Random(seed)
    events: list[dict[str, Any]] = [{"type": "RUN_STARTED", **IDS}]
    events.append({"type": "STATE_SNAPSHOT", "snapshot": {"counter": 0, "status": "streaming", "items": []}})
    budget, turn, step, items = n - 3, 0, 0, []
    while budget > 0:
        if budget >= 3:
            events += _text_message(turn, min(rng.randint(36, 44), budget - 2))
            budget = n - 1 - len(events)
        if budget >= 3:
            events += _tool_call(turn, min(rng.randint(16, 24), budget - 2))
            budget = n - 1 - len(events)
        for _ in range(min(rng.randint(1, 3), budget)):
            step += 1
            events.append(_state_delta(step, items, rng))
        budget, turn = n - 1 - len(events), turn + 1
    events.append({"type": "RUN_FINISHED", **IDS})
    return [json.dumps(event, separators=(",", ":")) for event in events]


def replay_frames(frames: list[str]) -> tuple[AGUIThread, float]:
    """Feed every frame to a fresh pipeline; the thread and the seconds the feeding took."""
    thread = AGUIThread()
    pipeline = EventPipeline(thread)
    start = time.perf_counter()
    for frame in frames:
        pipeline.feed_frame(frame)
    seconds = time.perf_counter() - start
    pipeline.finish()
    return thread, seconds


def summarize(thread: AGUIThread) -> dict[str, Any]:
    """Counts and state of a finished thread, as ts_replay.mjs computes them for the reference client."""
    messages = thread.to_json()["messages"]
    calls = [call for message in messages for call in message.get("toolCalls") or []]
    return {
        "messages": len(messages),
        "toolCalls": len(calls),
        "contentChars": sum(len(m["content"]) for m in messages if isinstance(m.get("content"), str)),
        "argumentChars": sum(len(call["function"]["arguments"]) for call in calls),
        "state": thread.state,
    }


def measure_copilot_ui(frames: list[str]) -> tuple[float, dict[str, Any]]:
    """Best-of-REPEATS events/s of copilot_ui, and the summary of the thread it built."""
    best, thread = float("inf"), AGUIThread()
    for _ in range(REPEATS):
        thread, seconds = replay_frames(frames)
        best = min(best, seconds)
    return len(frames) / best, summarize(thread)


def _node_env() -> dict[str, str]:
    # The venv's bin first, so npm and any install script run with the venv's node.
    return {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}


def install_reference_client() -> None:
    """@ag-ui/client@1.0.0 (and its dependencies, rxjs among them) in CLIENT_DIR, unless already there."""
    installed = CLIENT_DIR / "node_modules" / "@ag-ui" / "client" / "package.json"
    if installed.exists() and json.loads(installed.read_text())["version"] == "1.0.0":
        return
    CLIENT_DIR.mkdir(parents=True, exist_ok=True)
    manifest = {"name": "agui-replay-bench", "private": True, "type": "module", "dependencies": {"@ag-ui/client": "1.0.0"}}
    (CLIENT_DIR / "package.json").write_text(json.dumps(manifest, indent=2))
    npm = Path(sys.executable).parent / "npm"
    command = [str(npm), "install", "--no-audit", "--no-fund", "--loglevel=error"]
    done = subprocess.run(command, cwd=CLIENT_DIR, env=_node_env(), capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        errors = [line for line in done.stderr.splitlines() if line.startswith("npm error") and "complete log" not in line]
        raise RuntimeError(f"npm install failed: {'; '.join(errors[:2]) or done.returncode}")


def measure_reference(frames: list[str]) -> dict[str, Any]:
    """Run ts_replay.mjs on the stream with the venv's node; its JSON report."""
    node = Path(sys.executable).parent / "node"
    if not node.exists():
        raise FileNotFoundError(f"no node next to {sys.executable}")
    stream = WORK / f"replay_{len(frames)}.jsonl"
    stream.write_text("\n".join(frames) + "\n", encoding="utf-8")
    script = CLIENT_DIR / "ts_replay.mjs"
    shutil.copyfile(BENCH / "ts_replay.mjs", script)
    command = [str(node), str(script), str(stream), str(REPEATS)]
    done = subprocess.run(command, cwd=CLIENT_DIR, env=_node_env(), capture_output=True, text=True, timeout=1800)
    if done.returncode != 0:
        raise RuntimeError(f"the reference client failed on the stream:\n{done.stderr.strip()}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def reference_events_per_s(frames: list[str], expected: dict[str, Any]) -> float | str:
    """The reference client's events/s, or why it could not run (an install problem); fails on a mismatch."""
    try:
        install_reference_client()
        report = measure_reference(frames)
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"unavailable ({type(error).__name__}: {error})"
    except RuntimeError as error:
        if str(error).startswith("npm install failed"):
            return f"unavailable ({error})"
        raise
    if report["summary"] != expected:
        raise RuntimeError(f"the reference client ended elsewhere: {report['summary']} != {expected}")
    return float(report["eventsPerS"])


def overhead_memory(n: int) -> int:
    """Peak traced bytes of replaying n events, minus the bytes still held (by the thread) at the end."""
    frames = make_stream(n)
    tracemalloc.start()
    try:
        thread, _ = replay_frames(frames)
        current, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(thread) > 0
    return peak - current


def main() -> None:
    frames = make_stream(EVENTS)
    ours, expected = measure_copilot_ui(frames)
    print(f"replay_events_per_s: {ours:.0f} events/s", flush=True)
    reference = reference_events_per_s(frames, expected)
    if isinstance(reference, str):
        print(f"replay_reference_ts_events_per_s: {reference}")
        print("replay_speedup_vs_reference: unavailable (no reference figure)", flush=True)
    else:
        print(f"replay_reference_ts_events_per_s: {reference:.0f} events/s")
        print(f"replay_speedup_vs_reference: {ours / reference:.1f} x", flush=True)
    for n in MEMORY_SIZES:
        print(f"replay_overhead_memory_{n // 1000}k: {overhead_memory(n) // 1024} KiB", flush=True)


if __name__ == "__main__":
    main()
