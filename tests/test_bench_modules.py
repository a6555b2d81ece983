"""Every benchmark `make bench` runs still imports: a benchmark left behind by a rename fails here, not only as one
line of "failed" in a long run of figures."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

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
