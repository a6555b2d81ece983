"""A model called by the name the app gave it ("openai-chat:gpt-4o"), where pydantic-ai would call it otherwise.

pydantic-ai names a model by its provider and its name (`Model.model_id`): "openai:gpt-4o" for a model on
OpenAI's Chat Completions as for one on its Responses API, though "openai:gpt-4o" names the Responses API.
Its first-run banner and its logs then named the API the app does not use.

A name without a provider pydantic-ai knows ("opnai:gpt-4o", "gpt-4o") is a DeclarationError suggesting the
provider meant: pydantic-ai's own error suggests one of its known models, which may be another vendor's.
"""

from __future__ import annotations

import difflib
import typing
from functools import cache

from pydantic_ai.exceptions import UserError
from pydantic_ai.models import KnownModelName, Model, infer_model
from pydantic_ai.models.wrapper import WrapperModel
from pydantic_ai.providers import infer_provider_class

from ..errors import DeclarationError

TAKES = 'it takes "provider:model", as pydantic-ai names models, e.g. "openai:gpt-4o" or "anthropic:claude-sonnet-4-5"'
# Whose a model is, by its family, for a name given without a provider ("gpt-4o": OpenAI's)
FAMILIES = {"gpt": "openai", "o1": "openai", "o3": "openai", "o4": "openai", "claude": "anthropic", "gemini": "google"}
FAMILIES |= {"mistral": "mistral", "codestral": "mistral", "grok": "xai", "deepseek": "deepseek", "command": "cohere"}


def named_model(model: Model | str, where: str = "the model") -> Model:
    """The model; one given by name goes by that name (its `model_id`), whatever pydantic-ai would call it. `where`:
    what named it, as an error for an unknown provider says (`COPILOT_MODEL`, `cui.builtin_agent`)."""
    if isinstance(model, Model):
        return model
    try:
        inferred = infer_model(model)
    except UserError as error:
        if not str(error).startswith("Unknown model"):
            raise  # (a missing key or package: pydantic-ai says which)
        raise DeclarationError(
            where, f'"{model}" names no provider pydantic-ai knows', takes=TAKES, close=_meant(model)
        ) from None
    return inferred if inferred.model_id == model else _Named(inferred, model)


def _meant(model: str) -> list[str]:
    """The names with the provider the app likely meant: a misspelt one's close matches, else the model's family's."""
    provider, _, name = model.partition(":") if ":" in model else ("", "", model)  # (an Ollama name has colons too)
    if provider:
        return [f'"{match}:{name}"' for match in difflib.get_close_matches(provider, _providers(), n=2, cutoff=0.6)]
    family = name.split("-")[0].lower()
    return [f'"{FAMILIES[family]}:{name}"'] if FAMILIES.get(family) in _providers() else []


@cache
def _providers() -> list[str]:
    """The providers pydantic-ai knows by name: those of its known models, and the OpenAI-compatible ones it names."""
    known = typing.get_args(getattr(KnownModelName, "__value__", KnownModelName))
    named = {name.partition(":")[0] for name in known if ":" in name}
    named |= {"ollama", "openrouter", "azure", "together", "fireworks", "litellm", "vercel", "github", "nebius"}
    return sorted(provider for provider in named if _is_provider(provider))


def _is_provider(name: str) -> bool:
    try:
        infer_provider_class(name)
    except ValueError:
        return False
    except ImportError:  # (known, its package not installed)
        return True
    return True


class _Named(WrapperModel):
    """The model, with the name it was given as its id; everything else is the model's own."""

    def __init__(self, wrapped: Model, name: str) -> None:
        super().__init__(wrapped)
        self._name = name

    @property
    def model_id(self) -> str:
        return self._name
