"""Servings share a build when their compiled pages are the same, and only then (`_shared_builds.pages_key`)."""

from __future__ import annotations

import json
from pathlib import Path

from ._shared_builds import pages_key

STORAGE = {"cookies": {"a.owner": {"name": "cui_owner"}, "b.workspace": {"name": "demo_workspace"}}, "local_storage": {}}


def compiled(folder: Path, storage: str, page: str = "jsx('main')") -> Path:
    (folder / "utils").mkdir(parents=True)
    (folder / "utils" / "context.jsx").write_text(f"export const x = 1;\nexport const clientStorage = {storage}\n")
    (folder / "app").mkdir()
    (folder / "app" / "page.jsx").write_text(page)
    (folder / "node_modules").mkdir()
    (folder / "node_modules" / "installed.js").write_text(str(folder))  # not the pages: never in the key
    return folder


def test_pages_whose_client_storage_lists_the_same_fields_in_another_order_share_a_build(tmp_path: Path):
    reordered = {"local_storage": {}, "cookies": dict(reversed(STORAGE["cookies"].items()))}
    first = compiled(tmp_path / "first", json.dumps(STORAGE))
    second = compiled(tmp_path / "second", json.dumps(reordered))
    assert pages_key(first) == pages_key(second)


def test_pages_that_differ_do_not_share_a_build(tmp_path: Path):
    first = compiled(tmp_path / "first", json.dumps(STORAGE))
    other_page = compiled(tmp_path / "page", json.dumps(STORAGE), page="jsx('main', {}, 'Dev console')")
    other_cookie = compiled(tmp_path / "cookie", json.dumps({**STORAGE, "cookies": {"a.owner": {"name": "other"}}}))
    assert len({pages_key(first), pages_key(other_page), pages_key(other_cookie)}) == 3
