"""`python -m copilot_ui init`: what a new app's folder gets besides Reflex's files."""

from __future__ import annotations

from pathlib import Path

from copilot_ui._cli import new_app_needs


def test_a_new_app_lists_copilot_ui_and_ignores_the_copilots_folder(tmp_path: Path):
    (tmp_path / "requirements.txt").write_text("reflex==0.10.1\n")
    (tmp_path / ".gitignore").write_text("*.db\n.web\n")
    said = new_app_needs(tmp_path)
    assert (tmp_path / "requirements.txt").read_text() == "reflex==0.10.1\ncopilot_ui\n"
    assert (tmp_path / ".gitignore").read_text() == "*.db\n.web\n.copilot/\n"
    assert len(said) == 2


def test_what_the_app_lists_already_is_left_as_it_is(tmp_path: Path):
    (tmp_path / "requirements.txt").write_text("reflex==0.10.1\ncopilot-ui>=0.1\n")
    (tmp_path / ".gitignore").write_text(".copilot\n")
    assert new_app_needs(tmp_path) == []
    assert (tmp_path / "requirements.txt").read_text() == "reflex==0.10.1\ncopilot-ui>=0.1\n"
    assert (tmp_path / ".gitignore").read_text() == ".copilot\n"
