"""RFC 6902 JSON Patch, applied atomically and in place: the patch applies whole or not at all.

State deltas arrive at the rate of tokens, and most are `add`, `replace` or `remove` on a short
path; those are applied here directly, with an undo journal for atomicity. Any patch with another
operation (move, copy, test) goes to the jsonpatch library whole, also atomic.
"""

from __future__ import annotations

import copy
from typing import Any

import jsonpatch
import jsonpointer

from ..errors import PatchError

_FAST_OPS = frozenset({"add", "replace", "remove"})


def apply_patch(document: Any, operations: list[Any]) -> Any:
    """Apply ag_ui patch operations to a JSON document; returns the document (the root may change).

    Raises PatchError, leaving the document as it was, when any operation fails.
    """
    if all(operation.op in _FAST_OPS for operation in operations):
        return _apply_simple(document, operations)
    patch = [operation.model_dump(by_alias=True) for operation in operations]
    try:
        return jsonpatch.apply_patch(document, patch, in_place=True, atomic=True)
    except (jsonpatch.JsonPatchException, jsonpointer.JsonPointerException, TypeError, KeyError, IndexError) as error:
        raise PatchError(str(error)) from None


def _apply_simple(document: Any, operations: list[Any]) -> Any:
    undo: list[tuple[Any, ...]] = []
    root = document
    try:
        for operation in operations:
            # A copy of the value, as jsonpatch makes: later operations must not change the event's patch.
            value = getattr(operation, "value", None)
            if isinstance(value, (dict, list)):
                value = copy.deepcopy(value)
            root = _apply_one(root, operation.op, operation.path, value, undo)
    except PatchError:
        for step in reversed(undo):
            _undo(step)
        raise
    return root


def _apply_one(root: Any, op: str, path: str, value: Any, undo: list[tuple[Any, ...]]) -> Any:
    if path == "":
        if op == "remove":
            raise PatchError("cannot remove the whole document")
        undo.append(("root",))  # the caller keeps the old root; nothing inside it changed
        return value
    parent, key = _parent_and_key(root, path)
    if isinstance(parent, dict):
        if op == "add":
            undo.append(("set", parent, key, parent[key]) if key in parent else ("del", parent, key))
            parent[key] = value
        elif key not in parent:
            raise PatchError(f"{op}: no member {key!r} at {path!r}")
        elif op == "replace":
            undo.append(("set", parent, key, parent[key]))
            parent[key] = value
        else:
            undo.append(("set", parent, key, parent.pop(key)))
        return root
    if isinstance(parent, list):
        index = _list_index(parent, key, path, allow_end=op == "add")
        if op == "add":
            parent.insert(index, value)
            undo.append(("pop", parent, index))
        elif op == "replace":
            undo.append(("set", parent, index, parent[index]))
            parent[index] = value
        else:
            undo.append(("insert", parent, index, parent.pop(index)))
        return root
    raise PatchError(f"{op}: {path!r} points inside a value that is neither an object nor an array")


def _parent_and_key(root: Any, path: str) -> tuple[Any, str]:
    if path[0] != "/":
        raise PatchError(f"{path!r} is not a JSON pointer (it must start with '/')")
    parts = path[1:].split("/")
    if "~" in path:
        parts = [part.replace("~1", "/").replace("~0", "~") for part in parts]
    node = root
    for part in parts[:-1]:
        if isinstance(node, dict):
            if part not in node:
                raise PatchError(f"{path!r}: no member {part!r}")
            node = node[part]
        elif isinstance(node, list):
            node = node[_list_index(node, part, path, allow_end=False)]
        else:
            raise PatchError(f"{path!r}: {part!r} is inside a value that is neither an object nor an array")
    return node, parts[-1]


def _list_index(items: list[Any], key: str, path: str, *, allow_end: bool) -> int:
    if key == "-" and allow_end:
        return len(items)
    if not (key.isascii() and key.isdigit()) or (len(key) > 1 and key[0] == "0"):
        raise PatchError(f"{path!r}: {key!r} is not an array index")
    index = int(key)
    if index > len(items) or (index == len(items) and not allow_end):
        raise PatchError(f"{path!r}: index {index} is out of range")
    return index


def _undo(step: tuple[Any, ...]) -> None:
    # A member removed and put back goes to the end of its object: the same members and values.
    kind = step[0]
    if kind == "set":
        step[1][step[2]] = step[3]
    elif kind == "del":
        del step[1][step[2]]
    elif kind == "pop":
        step[1].pop(step[2])
    elif kind == "insert":
        step[1].insert(step[2], step[3])
