"""What a model provider's failure means to the person: a message that names the provider and says what to do.

pydantic-ai sorts a provider's failures into typed exceptions (a refused key, a rate limit, a server
error, a broken connection, a timeout…); ModelErrors puts each in words for the copilot's chat, in
place of Python's view of it. Nothing the provider sent is quoted unless it helps, and then only
after the environment's secrets were scrubbed from it: an API key never reaches the page.
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass
from urllib.parse import urlsplit

from pydantic_ai import exceptions as e

from ..agents import Scrubber

logger = logging.getLogger("copilot_ui.server")

QUOTED_CHARS = 200  # of what a provider said, where the message quotes it


@dataclass(frozen=True, kw_only=True)
class ModelProvider:
    """Who answers for a model, as a message names them, and where a person configures it."""

    name: str  # "OpenAI", "the model server at localhost:11434"
    key_variable: str = ""  # where its API key is set ("" when none is needed)
    address_variable: str = ""  # where its address is set
    address: str = ""  # its host (and port), for "cannot reach"
    model_check: str = "check COPILOT_MODEL"  # what to do about a model it does not know


# pydantic-ai's provider names (Model.system) → how people call them and where their key lives.
KNOWN_PROVIDERS = {
    "openai": ("OpenAI", "OPENAI_API_KEY", "OPENAI_BASE_URL"),
    "anthropic": ("Anthropic", "ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL"),
    "function": ("the model", "", ""),  # a FunctionModel: the demo model, a test's
}


def provider_of(model: object) -> ModelProvider:
    """The provider of a pydantic-ai model, by its `system` (a provider this table does not know goes by that name)."""
    system = str(getattr(model, "system", "") or "the model's provider")
    name, key_variable, address_variable = KNOWN_PROVIDERS.get(system, (system, "", ""))
    return ModelProvider(
        name=name, key_variable=key_variable, address_variable=address_variable, address=host_of(getattr(model, "base_url", ""))
    )


def host_of(url: str | None) -> str:
    """The host and port of a URL (never its path, user or password)."""
    try:
        return urlsplit(url or "").netloc.rpartition("@")[2]
    except ValueError:
        return ""


class ModelErrors:
    """Turns the exception that ended a run of a model into what the person reads (None: not the provider's doing).

    `timeout` is the settings' (seconds a provider may stay silent), for the message that says it ran out.
    """

    def __init__(self, provider: ModelProvider, model_name: str, timeout: float | None = None) -> None:
        self.provider = provider
        self.model_name = model_name
        self.timeout = timeout
        self._scrubber = Scrubber.from_environment()

    def __call__(self, error: Exception, received: bool) -> str | None:
        message = self.explain(error, received)
        if message is not None:  # the operator's log keeps the details the person is spared
            logger.warning("%s: %s", self.provider.name, self._scrubber.scrub(f"{type(error).__name__}: {error}"))
        return message

    def explain(self, error: Exception, received: bool) -> str | None:
        """The message for this failure; `received`: part of the reply had arrived when it happened."""
        who, kept = _capitalized(self.provider.name), "; the part received is kept" if received else ""
        status = getattr(error, "status_code", None)
        http = f" (HTTP {status})" if status else ""
        match error:
            case e.ModelContextWindowExceededError():
                return f"The conversation is too long for {self.model_name}: start a new conversation."
            case e.ModelAuthenticationError() if status == 403:
                return f"{who} does not let this API key use {self.model_name}{http}: {self._check_key()} and what it may use."
            case e.ModelAuthenticationError():
                return f"{who} refused the API key{http}: {self._check_key()}."
            case e.ModelNotFoundError():
                return f"{who} does not know the model {self.model_name!r}{http}: {self.provider.model_check}."
            case e.ModelQuotaExceededError():
                return f"{who} says the account has no quota or credit left{http}: check its billing, then retry."
            case e.ModelRateLimitError():
                return f"{who} is rate limiting: {_when(error.retry_after)}."
            case e.ModelOverloadedError():
                return f"{who} is overloaded right now{http}: try again in a moment."
            case e.ModelUnavailableError():
                return f"{who} is unavailable right now{http}: try again in a moment."
            case e.ModelServerError():
                return f"{who} had an internal error{http}: try again in a moment."
            case e.ModelRequestRejectedError():
                return f"{who} rejected the request{http}: {self._said(error)}"
            case e.ModelRequestTimeout() | e.ModelTimeoutError():
                return self._timed_out(error, received)
            case e.ModelConnectionError() if error.phase in ("connect", "pool") and not received:
                return f"Cannot reach {self._where()}: {self._check_address()}"
            case e.ModelConnectionError():
                where = "mid-reply" if received else "before its reply began"
                return f"The connection to {self.provider.name} broke {where}{kept}. Retry to try again."
            case e.ModelHTTPError():
                return f"{who} answered with an error{http}: {self._said(error)} Retry to try again."
            case e.ModelAPIError() if _undecodable(error):
                return f"{who} sent a piece of its reply that could not be read{kept}. Retry to try again."
            case e.ModelAPIError():
                return f"{who} failed: {self._quoted(str(error))}. Retry to try again."
            case e.ContentFilterError():
                return f"{who} declined to answer: its content filter stopped the reply{kept}. Rephrase the request."
            case e.OutputTokenLimitExceeded():
                return f"{who} stopped at the maximum reply length{kept}: ask for less, or allow more (COPILOT_MAX_TOKENS)."
            case e.UnexpectedModelBehavior() if "retries" in error.message:
                return f"{self.model_name} kept sending tool calls or answers that were not valid. Retry to try again."
            case e.UnexpectedModelBehavior():
                return f"{who} sent a reply that could not be read{kept}. Retry to try again."
        return None

    def _timed_out(self, error: Exception, received: bool) -> str:
        seconds = getattr(error, "timeout", None) or self.timeout
        within = f" within {seconds:g} s" if seconds else " in time"
        if received:
            silent = f" (nothing for {seconds:g} s)" if seconds else ""
            return (
                f"{_capitalized(self.provider.name)} stopped sending mid-reply{silent}; the part received is kept. "
                "Retry to try again."
            )
        return (
            f"{_capitalized(self.provider.name)} did not answer{within}. Retry to try again; "
            "a slow model may need a longer COPILOT_MODEL_TIMEOUT."
        )

    def _check_key(self) -> str:
        return f"check {self.provider.key_variable}" if self.provider.key_variable else "check its API key"

    def _where(self) -> str:
        name, address = self.provider.name, self.provider.address
        return f"{name} at {address}" if address and address not in name else name

    def _check_address(self) -> str:
        variable = self.provider.address_variable
        if variable.startswith("COPILOT_"):  # a server of the person's own
            return f"is it running, and is {variable} right?"
        return f"check the network connection{f' and {variable}' if variable else ''}, then retry."

    def _said(self, error: object) -> str:
        """What the provider said about a rejected request, quoted (scrubbed, shortened), as a sentence."""
        body = getattr(error, "body", None)
        said = self._quoted(_message_in(body) or "")
        if not said:
            return "it gave no reason."
        return f"“{said}”" if said.endswith((".", "!", "?", "…")) else f"“{said}”."

    def _quoted(self, text: str) -> str:
        folded = " ".join(self._scrubber.scrub(text).split())
        return folded if len(folded) <= QUOTED_CHARS else folded[: QUOTED_CHARS - 1] + "…"


def _when(retry_after: float | None) -> str:
    if retry_after is None or retry_after <= 0:
        return "wait a moment, then retry"
    seconds = math.ceil(retry_after)
    return f"try again in {seconds} s" if seconds < 120 else f"try again in {math.ceil(seconds / 60)} min"


def _message_in(body: object) -> str | None:
    """The human part of a provider's error body: OpenAI's {"message": …}, Anthropic's {"error": {"message": …}}."""
    if isinstance(body, dict):
        for key in ("message", "error"):
            value = body.get(key)
            if isinstance(value, str) and value.strip():
                return value
            if isinstance(value, dict):
                return _message_in(value)
    return None


def _undecodable(error: e.ModelAPIError) -> bool:
    return error.message.startswith(("Failed to decode response as JSON", "Expected a JSON response"))


def _capitalized(name: str) -> str:
    return name[:1].upper() + name[1:]
