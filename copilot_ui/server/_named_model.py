"""A model called by the name the app gave it ("openai-chat:gpt-4o"), where pydantic-ai would call it otherwise.

pydantic-ai names a model by its provider and its name (`Model.model_id`): "openai:gpt-4o" for a model on
OpenAI's Chat Completions as for one on its Responses API, though "openai:gpt-4o" names the Responses API.
Its first-run banner and its logs then named the API the app does not use.
"""

from __future__ import annotations

from pydantic_ai.models import Model, infer_model
from pydantic_ai.models.wrapper import WrapperModel


def named_model(model: Model | str) -> Model:
    """The model; one given by name goes by that name (its `model_id`), whatever pydantic-ai would call it."""
    if isinstance(model, Model):
        return model
    inferred = infer_model(model)
    return inferred if inferred.model_id == model else _Named(inferred, model)


class _Named(WrapperModel):
    """The model, with the name it was given as its id; everything else is the model's own."""

    def __init__(self, wrapped: Model, name: str) -> None:
        super().__init__(wrapped)
        self._name = name

    @property
    def model_id(self) -> str:
        return self._name
