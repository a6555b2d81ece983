"""The store is usable without Reflex: importing it loads none of Reflex."""

from __future__ import annotations

from tests.protocol.test_layering import reflex_modules_after_importing


def test_importing_the_store_imports_no_reflex():
    assert reflex_modules_after_importing("copilot_ui.store") == []
