"""Shared test set-up. Each ring has its own conftest: core and protocol (no browser), wire (real HTTP), browser."""
