"""RFC 6902 JSON Patch, applied atomically and in place: the patch applies whole or not at all.

State deltas arrive at the rate of tokens, and most are `add`, `replace` or `remove` on a short
path; those are applied here directly, with an undo journal for atomicity. Any patch with another
operation (move, copy, test) goes to the jsonpatch library whole, also atomic.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from functools import partial
from typing import TYPE_CHECKING

import jsonpatch
import jsonpointer

from ..errors import PatchError
from ._json import JSON

if TYPE_CHECKING:
    from ag_ui._generated.models import JsonPatchOperation  # ag_ui.core names it only inside JsonPatch

_FAST_OPS = frozenset({"add", "replace", "remove"})
_Undo = list[Callable[[], object]]  # the steps that put back what the operations so far changed, in order


def apply_patch(document: JSON, operations: Sequence[JsonPatchOperation]) -> JSON:
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


def _apply_simple(document: JSON, operations: Sequence[JsonPatchOperation]) -> JSON:
    undo: _Undo = []
    root = document
    try:
        for operation in operations:
            # A copy of the value, as jsonpatch makes: later operations must not change the event's patch.
            value: JSON = getattr(operation, "value", None)
            if isinstance(value, (dict, list)):
                value = copy.deepcopy(value)
            root = _apply_one(root, operation.op, operation.path, value, undo)
    except PatchError:
        for step in reversed(undo):
            step()
        raise
    return root


def _apply_one(root: JSON, op: str, path: str, value: JSON, undo: _Undo) -> JSON:
    if path == "":
        if op == "remove":
            raise PatchError("cannot remove the whole document")
        return value  # the caller keeps the old root; nothing inside it changed
    parent, key = _parent_and_key(root, path)
    if isinstance(parent, dict):
        # A member removed and put back goes to the end of its object: the same members and values.
        if op == "add":
            undo.append(partial(parent.__setitem__, key, parent[key]) if key in parent else partial(parent.__delitem__, key))
            parent[key] = value
        elif key not in parent:
            raise PatchError(f"{op}: no member {key!r} at {path!r}")
        elif op == "replace":
            undo.append(partial(parent.__setitem__, key, parent[key]))
            parent[key] = value
        else:
            undo.append(partial(parent.__setitem__, key, parent.pop(key)))
        return root
    if isinstance(parent, list):
        index = _list_index(parent, key, path, allow_end=op == "add")
        if op == "add":
            parent.insert(index, value)
            undo.append(partial(parent.pop, index))
        elif op == "replace":
            undo.append(partial(parent.__setitem__, index, parent[index]))
            parent[index] = value
        else:
            undo.append(partial(parent.insert, index, parent.pop(index)))
        return root
    raise PatchError(f"{op}: {path!r} points inside a value that is neither an object nor an array")


def _parent_and_key(root: JSON, path: str) -> tuple[JSON, str]:
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


def _list_index(items: list[JSON], key: str, path: str, *, allow_end: bool) -> int:
    if key == "-" and allow_end:
        return len(items)
    if not (key.isascii() and key.isdigit()) or (len(key) > 1 and key[0] == "0"):
        raise PatchError(f"{path!r}: {key!r} is not an array index")
    index = int(key)
    if index > len(items) or (index == len(items) and not allow_end):
        raise PatchError(f"{path!r}: index {index} is out of range")
    return index
