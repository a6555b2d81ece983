"""The agent's state, mirrored in Reflex states of the app: typed, checked, and sent with every run.

The app names Reflex states (`cui.agent_state(ReportState)`, or `agent="research"` for one agent's
only); the fields of those bound to an agent are the part of its state the page shows and edits.
Before each run they are read fresh into the thread's state (so the person's edits go with it);
when the agent changes the state (STATE_SNAPSHOT, STATE_DELTA, or a tool's argument a PredictState
maps to a key) the new values are checked against the fields' types and written to the Reflex states
while the agent works. A change that does not fit is refused whole: every state stays as it was, and
the server log says why (a predicted value still streaming is refused quietly: the rest may make it fit).
"""

from __future__ import annotations

import copy
import logging
import typing
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError, create_model

from ._fields import field_value, own_fields

logger = logging.getLogger("copilot_ui.state")


class SharedState:
    """The fields of one Reflex state class as the agent's state."""

    def __init__(self, state_type: type) -> None:
        self.state_type = state_type
        hints = typing.get_type_hints(state_type)
        self.fields = [name for name in own_fields(state_type) if not name.startswith("_") and name in hints]
        # Every field has a default (never validated): a change checks only the fields it sends.
        fields: dict[str, Any] = {name: (hints[name], None) for name in self.fields}
        self.model: type[BaseModel] = create_model(
            f"{state_type.__name__}AgentState", __config__=ConfigDict(extra="ignore"), **fields
        )

    def read(self, state: Any) -> dict[str, Any]:
        """The fields' values in the Reflex state, as JSON the agent reads."""
        values = {name: field_value(state, name) for name in self.fields}
        return self.model.model_validate(values).model_dump(mode="json")

    def accept(self, agent_state: Any, *, quiet: bool = False) -> dict[str, Any] | None:
        """The fields' values in the agent's state, checked; None when they do not fit (the change is refused)."""
        if not isinstance(agent_state, dict):
            logger.warning("the agent's state is not an object; %s stays as it was", self.state_type.__name__)
            return None
        present = {name: agent_state[name] for name in self.fields if name in agent_state}
        try:
            checked = self.model.model_validate(present)
        except ValidationError as error:
            if not quiet:
                logger.warning("the agent's state does not fit %s; it stays as it was: %s", self.state_type.__name__, error)
            return None
        return {name: getattr(checked, name) for name in present}

    def write(self, state: Any, values: dict[str, Any]) -> None:
        """Set the changed fields of the Reflex state."""
        for name, value in values.items():
            if field_value(state, name) != value:
                setattr(state, name, copy.deepcopy(value))


class SharedStates:
    """The Reflex states bound to one agent: each class's fields are keys of the agent's state."""

    def __init__(self, state_types: list[type]) -> None:
        self.parts = [shared_state(state_type) for state_type in state_types]

    def __bool__(self) -> bool:
        return bool(self.parts)

    def accept(self, agent_state: Any, *, quiet: bool = False) -> dict[type, dict[str, Any]] | None:
        """Each state's new field values in the agent's state, checked; None when any does not fit (all refused;
        `quiet`: without a warning in the log, for a value still streaming)."""
        accepted = {}
        for part in self.parts:
            values = part.accept(agent_state, quiet=quiet)
            if values is None:
                return None
            accepted[part.state_type] = values
        return accepted


_BY_TYPE: dict[type, SharedState] = {}


def shared_state(state_type: type) -> SharedState:
    """The SharedState of a Reflex state class (made once)."""
    shared = _BY_TYPE.get(state_type)
    if shared is None:
        shared = _BY_TYPE[state_type] = SharedState(state_type)
    return shared
