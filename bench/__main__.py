"""Run every benchmark: `python -m bench` (what `make bench` does)."""

from __future__ import annotations

import importlib
import sys
import time

BENCHMARKS = [
    "bench.replay_throughput",
    "bench.loop_overhead",
    "bench.agent_start",
    "bench.apply_cost",
    "bench.predicted_state",
    "bench.store_cost",
    "bench.stream_wire",
    "bench.sink_rate",
    "bench.open_thread",
    "bench.reveal_text",
    "bench.mcp_turns",
    "bench.attachments",
    "bench.load",
    "bench.closed_sessions",
    "bench.testing_kit",
]


def main() -> int:
    failed = 0
    for name in BENCHMARKS:
        print(f"# {name}", flush=True)
        started = time.perf_counter()
        try:
            importlib.import_module(name).main()
        except Exception as error:  # one broken benchmark must not hide the others' figures
            failed += 1
            print(f"# {name} failed: {type(error).__name__}: {error}", flush=True)
        print(f"# {name} took {time.perf_counter() - started:.1f} s", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
