"""Every benchmark `make bench` runs still imports: a benchmark left behind by a rename fails here, not only as one
line of "failed" in a long run of figures."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from tests._processes import python_prints

BENCH = Path(__file__).resolve().parents[1] / "bench"


def _benchmarks() -> list[str]:
    from bench.__main__ import BENCHMARKS

    return list(BENCHMARKS)


@pytest.mark.parametrize("module", _benchmarks())
def test_the_benchmark_imports_and_has_its_main(module: str) -> None:
    imported = importlib.import_module(module)
    assert callable(getattr(imported, "main", None)), f"{module} has no main() for `python -m bench` to run"


def test_make_bench_runs_every_benchmark_module() -> None:
    modules = {f"bench.{path.stem}" for path in BENCH.glob("*.py") if not path.stem.startswith("_")}
    assert modules - set(_benchmarks()) == set(), "a benchmark module that `make bench` never runs"


def test_the_profiles_timeline_hooks_the_points_it_times() -> None:
    """bench/_timeline.py hooks Reflex's event queue and socket and pydantic-ai's Agent and FunctionModel as they are
    imported: a rename in either library fails here, not as a profiled serving that never starts or times nothing."""
    script = (
        "import sys, tempfile\n"
        "from bench import _timeline\n"
        "_timeline.start(tempfile.mkdtemp())\n"
        "import reflex.app, pydantic_ai.agent, pydantic_ai.models.function\n"
        "from reflex_base.event.processor import event_processor\n"
        "hooked = [event_processor.EventProcessor.enqueue, reflex.app.EventNamespace.emit_update,\n"
        "          pydantic_ai.agent.Agent.iter, pydantic_ai.models.function.FunctionModel.__init__]\n"
        "print(' '.join(function.__module__ for function in hooked))\n"
    )
    printed = python_prints(script)
    assert printed.split() == ["bench._timeline"] * 4, printed


def test_the_profiles_timeline_counts_the_event_loops_iterations_and_the_long_ones() -> None:
    """bench/_timeline.py times asyncio's iterations through its private `_run_once` and `Handle._run`: a change in
    asyncio fails here, not as a profiled serving that counts no iteration."""
    script = (
        "import asyncio, time\n"
        "from bench import _timeline\n"
        "_timeline._time_iterations()\n"
        "async def main():\n"
        "    for _ in range(5):\n"
        "        await asyncio.sleep(0)\n"
        "    time.sleep(2 * _timeline.LONG_ITERATION)\n"
        "    await asyncio.sleep(0)\n"
        "asyncio.run(main())\n"
        "print(_timeline._loop['iterations'], _timeline._loop['long'])\n"
    )
    printed = python_prints(script)
    iterations, long = map(int, printed.split())
    assert iterations >= 6, printed
    assert 1 <= long < iterations, printed  # (the one that slept; a busy machine may stretch another)
