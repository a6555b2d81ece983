"""RFC 6902 JSON Patch as the state and activity deltas apply it, checked against the jsonpatch library.

apply_patch must give jsonpatch's result whenever jsonpatch succeeds, and whenever jsonpatch fails
it must raise PatchError and leave the document exactly as it was (the patch applies whole or not
at all).
"""

from __future__ import annotations

import copy
import json
import random

import jsonpatch
import jsonpointer
import pytest
from ag_ui.core import StateDeltaEvent

from copilot_ui.protocol._patch import PatchError, apply_patch

KEYS = ["a", "b", "items", "x/y", "m~n", "~1", "-", "0", "1", "01", ""]
SCALARS = [0, 1, -2, 3.5, "s", "", True, False, None]
FAILED = object()


def operations(patch):
    """The patch as the ag_ui operation models a STATE_DELTA event carries."""
    return StateDeltaEvent(delta=patch).delta


def canonical(value) -> str:
    # json text tells 1 from true and 1 from 1.0, which == does not.
    return json.dumps(value, sort_keys=True)


def by_oracle(document, patch):
    try:
        return jsonpatch.apply_patch(copy.deepcopy(document), patch)
    except (jsonpatch.JsonPatchException, jsonpointer.JsonPointerException):
        return FAILED


def random_value(rng, depth=3):
    roll = rng.random()
    if depth == 0 or roll < 0.3:
        return rng.choice(SCALARS)
    if roll < 0.65:
        return {rng.choice(KEYS): random_value(rng, depth - 1) for _ in range(rng.randint(0, 4))}
    return [random_value(rng, depth - 1) for _ in range(rng.randint(0, 4))]


def locations(value, here=()):
    """Every location in a document, as a tuple of unescaped reference tokens."""
    yield here
    if isinstance(value, dict):
        for key, item in value.items():
            yield from locations(item, (*here, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from locations(item, (*here, str(index)))


def value_at(document, tokens):
    for token in tokens:
        document = document[token] if isinstance(document, dict) else document[int(token)]
    return document


def random_path(rng, document) -> str:
    """A pointer that may name a member, the end of an array, or nothing that exists."""
    tokens = list(rng.choice(list(locations(document))))
    roll = rng.random()
    if roll < 0.05:
        tokens = []  # the whole document
    elif roll < 0.6:
        pass  # an existing member or element
    elif roll < 0.92:
        container = value_at(document, tokens)
        if isinstance(container, list):
            tokens.append(rng.choice(["-", str(len(container)), str(len(container) + 1), "01", "x", "0"]))
        else:
            tokens.append(rng.choice(KEYS))  # a new key of an object, or a step into a scalar
    else:
        tokens = [*tokens, rng.choice(["nope", "0"]), rng.choice(KEYS)]  # a missing intermediate
    return "".join("/" + token.replace("~", "~0").replace("/", "~1") for token in tokens)


def random_patch(rng, document, kinds):
    patch = []
    for _ in range(rng.choice([1, 1, 2, 3])):
        op = rng.choice(kinds)
        operation = {"op": op, "path": random_path(rng, document)}
        if op in ("add", "replace", "test"):
            operation["value"] = random_value(rng, 2)
        if op in ("move", "copy"):
            operation["from"] = random_path(rng, document)
        patch.append(operation)
    return patch


def check_against_oracle(document, patch):
    expected = by_oracle(document, patch)
    mine = copy.deepcopy(document)
    if expected is FAILED:
        with pytest.raises(PatchError):
            apply_patch(mine, operations(patch))
        assert canonical(mine) == canonical(document), f"a failed patch changed the document: {patch}"
        return False
    assert canonical(apply_patch(mine, operations(patch))) == canonical(expected), f"patch {patch} on {document}"
    return True


def test_add_replace_remove_patches_give_jsonpatchs_result_or_change_nothing():
    rng = random.Random(6902)
    outcomes = []
    for _ in range(600):
        document = random_value(rng, 4)
        outcomes.append(check_against_oracle(document, random_patch(rng, document, ["add", "replace", "remove"])))
    # The generator must exercise both sides, or the test proves little.
    assert 0.2 < sum(outcomes) / len(outcomes) < 0.8


def test_patches_with_move_copy_and_test_give_jsonpatchs_result_or_change_nothing():
    rng = random.Random(1945)
    outcomes = []
    for _ in range(300):
        document = random_value(rng, 4)
        patch = random_patch(rng, document, ["add", "replace", "remove", "move", "copy", "test"])
        outcomes.append(check_against_oracle(document, patch))
    assert 0.1 < sum(outcomes) / len(outcomes) < 0.9


@pytest.mark.parametrize(
    ("document", "patch", "expected"),
    [
        pytest.param({"a/b": 1, "m~n": 2}, [{"op": "replace", "path": "/a~1b", "value": 3}], {"a/b": 3, "m~n": 2}, id="slash"),
        pytest.param({"a/b": 1, "m~n": 2}, [{"op": "remove", "path": "/m~0n"}], {"a/b": 1}, id="tilde"),
        pytest.param({"~1": 0}, [{"op": "add", "path": "/~01", "value": 1}], {"~1": 1}, id="tilde-then-one"),
        pytest.param([1, 2], [{"op": "add", "path": "/-", "value": 3}], [1, 2, 3], id="append"),
        pytest.param({"-": 1}, [{"op": "replace", "path": "/-", "value": 2}], {"-": 2}, id="dash-is-a-key-of-an-object"),
        pytest.param({"a": 1}, [{"op": "replace", "path": "", "value": [True]}], [True], id="root-replaced"),
        pytest.param(
            {"a": 1},
            [{"op": "add", "path": "", "value": {}}, {"op": "add", "path": "/b", "value": 2}],
            {"b": 2},
            id="root-then-member",
        ),
    ],
)
def test_pointer_escapes_appends_and_root_replacement(document, patch, expected):
    assert canonical(by_oracle(document, patch)) == canonical(expected)
    assert canonical(apply_patch(copy.deepcopy(document), operations(patch))) == canonical(expected)


@pytest.mark.parametrize(
    "patch",
    [
        [{"op": "add", "path": "/items/3", "value": "x"}],
        [{"op": "replace", "path": "/items/-", "value": "x"}],
        [{"op": "remove", "path": "/items/01"}],
        [{"op": "add", "path": "/title/x", "value": 1}],
        [{"op": "remove", "path": ""}],
        [{"op": "add", "path": "/items/0", "value": "z"}, {"op": "remove", "path": "/missing"}],
        [{"op": "copy", "from": "/title", "path": "/items/0"}, {"op": "test", "path": "/title", "value": "nope"}],
    ],
    ids=[
        "index-past-the-end",
        "replace-the-end",
        "leading-zero",
        "inside-a-string",
        "remove-the-root",
        "late-failure",
        "failed-test",
    ],
)
def test_patch_that_fails_raises_patch_error_and_changes_nothing(patch):
    document = {"title": "t", "items": ["a", "b"]}
    assert by_oracle(document, patch) is FAILED
    with pytest.raises(PatchError):
        apply_patch(document, operations(patch))
    assert document == {"title": "t", "items": ["a", "b"]}


def test_patch_applies_in_place_to_the_document_it_is_given():
    document = {"items": []}
    result = apply_patch(document, operations([{"op": "add", "path": "/items/-", "value": 1}]))
    assert result is document
    assert document == {"items": [1]}


def test_values_a_patch_adds_are_not_shared_with_the_patch():
    patch = operations(
        [
            {"op": "add", "path": "/a", "value": {"list": []}},
            {"op": "add", "path": "/a/list/-", "value": 1},
            {"op": "replace", "path": "/b", "value": {"n": 0}},
        ]
    )
    document = apply_patch({"b": None}, patch)
    document["b"]["n"] = 99

    # The patch reads as it arrived: applying it again to a fresh document gives the same result.
    assert patch[0].value == {"list": []}
    assert patch[2].value == {"n": 0}
    assert apply_patch({"b": None}, patch) == {"a": {"list": [1]}, "b": {"n": 0}}
