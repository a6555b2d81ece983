"""Benchmarks: each prints its figures as `name: value unit` lines. `make bench` runs them all."""
