"""Tools declared from Python functions: name, description, JSON schema and validation from type hints.

The description is the docstring (its Args section describes the parameters); the JSON schema
and the validation of arguments come from the type hints through pydantic: Literal becomes an
enum, defaults are kept, nested models and dataclasses are checked, Annotated[..., "text"] or
Field(description=...) describes a parameter. A parameter annotated ToolContext receives the
call's context, and the first parameter of a tool declared with `state=` receives that state.
A question for a person (kind "human") whose function has an `answer` parameter turns the
person's response into the result: it is called with the validated arguments and the response,
checked against that parameter's type.
"""

from __future__ import annotations

import dataclasses
import inspect
import json
import logging
import re
import types
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal, Union, get_args, get_origin, is_typeddict

from ag_ui.core import Tool as AGUITool
from pydantic import BaseModel, ConfigDict, Field, PydanticUserError, TypeAdapter, ValidationError, create_model
from pydantic_core import ErrorDetails

from ..errors import AnswerInvalid, ArgumentsInvalid, DeclarationError
from ..protocol._json import JSON, JSONObject
from ._context import Session, ToolContext

# A predicate answers True or False; anything else (or an exception) asks a person.
Approval = Union[Literal["never", "always"], Callable[[JSONObject], object]]
ExecutionMode = Literal["parallel", "sequential"]
ToolKind = Literal["function", "human", "wildcard"]

DEFAULT_TIMEOUT = 120.0
ANSWER_PARAMETER = "answer"  # a question tool's parameter that receives the person's response

logger = logging.getLogger("copilot_ui.core")


@dataclass(kw_only=True)
class Tool:
    """A tool the agent may call, with the options that say how the run loop treats it."""

    name: str
    description: str = ""
    parameters: dict[str, Any] = field(default_factory=lambda: {"type": "object", "properties": {}})  # a JSON schema
    handler: Callable[..., object] | None = None
    kind: ToolKind = "function"
    state: type[object] | None = None  # a session state the handler receives as its first argument
    mode: ExecutionMode = "parallel"
    approval: Approval = "never"
    follow_up: bool = True
    completes_run: bool = False
    timeout: float | None = DEFAULT_TIMEOUT
    available: Callable[[Session], bool] | None = None
    agent: str | None = None  # only offered to, and run for, this agent
    prepare_arguments: Callable[[JSONObject], JSONObject] | None = None
    arguments_model: type[BaseModel] | None = None
    context_parameter: str | None = None  # the handler's parameter that receives the ToolContext
    # A question's `answer` parameter type (None: the response is the result); Any: a type form has no static type
    # (PEP 747) that pydantic's TypeAdapter takes.
    answer_type: Any = None

    def needs_approval(self, arguments: JSONObject) -> bool:
        """Whether a person must approve this call before it runs. Where the policy cannot say, a person is asked: a
        predicate that fails or answers anything but True or False asks (and the log says why), as does an
        approval that is not "never"."""
        if not callable(self.approval):
            return self.approval != "never"
        try:
            verdict = self.approval(arguments)
        except Exception:
            logger.exception("the approval policy of %s failed; the call waits for a person's approval", self.name)
            return True
        if not isinstance(verdict, bool):
            logger.warning(
                "the approval policy of %s answered %r, not True or False; the call waits for a person's approval",
                self.name,
                verdict,
            )
            return True
        return verdict

    def is_available(self, session: Session) -> bool:
        """Whether the tool is offered in this session (page, flags)."""
        return self.available is None or bool(self.available(session))

    def validate(self, arguments: JSONObject) -> dict[str, object]:
        """The handler's keyword arguments; ArgumentsInvalid listing the fields that are wrong."""
        if self.arguments_model is None:
            return dict(arguments)
        try:
            model = self.arguments_model.model_validate(arguments)
        except ValidationError as error:
            model = self._validate_decoded(arguments)
            if model is None:  # the problems reported are those of the arguments as sent
                raise ArgumentsInvalid(self.name, [_problem(item) for item in error.errors(include_url=False)]) from None
        return {name: getattr(model, name) for name in self.arguments_model.model_fields}

    def _validate_decoded(self, arguments: JSONObject) -> BaseModel | None:
        """The arguments validated once JSON strings are decoded where the schema wants one; None if that fails too."""
        repaired = self._decode_json_strings(arguments)
        if repaired is None or self.arguments_model is None:
            return None
        try:
            return self.arguments_model.model_validate(repaired)
        except ValidationError:
            return None

    def _decode_json_strings(self, arguments: JSONObject) -> JSONObject | None:
        """Models often send an array or object as a JSON string: decode those where the schema wants one."""
        properties: JSON = self.parameters.get("properties")
        repaired, changed = dict(arguments), False
        for name, value in arguments.items():
            schema = properties.get(name) if isinstance(properties, dict) else None
            wanted = schema.get("type") if isinstance(schema, dict) else None
            if isinstance(value, str) and wanted in ("array", "object") and value.strip()[:1] in ("[", "{"):
                try:
                    repaired[name] = json.loads(value)
                    changed = True
                except ValueError:
                    pass
        return repaired if changed else None

    @property
    def takes_text_answer(self) -> bool:
        """Whether a person's answer to this question may be plain text (a message they typed, say)."""
        return self.answer_type is None or self.answer_type in (str, Any)

    async def answered(self, kwargs: Mapping[str, object], response: JSON, state: object = None) -> object:
        """A question's result for the person's response: its function's, called with the validated arguments and the
            response checked against the `answer` parameter's type; the response itself when it has no such function.
            A question declared with `state=` gets `state` first, as a frontend tool does. A dict of one field (a form of
        one field) answers a question whose type takes no dict (an int, a date, a Literal) with that field's value.

            Raises AnswerInvalid when the response does not fit that type; whatever the function raises.
        """
        if self.answer_type is None or self.handler is None:
            return response
        if isinstance(response, dict) and len(response) == 1 and not _takes_mapping(self.answer_type):
            (response,) = response.values()  # a form of one field answers with its value
        try:
            answer = TypeAdapter(self.answer_type).validate_python(response)
        except ValidationError as error:
            raise AnswerInvalid(self.name, [_problem(item) for item in error.errors(include_url=False)], response) from None
        first = (state,) if self.state is not None else ()
        result = self.handler(*first, **kwargs, **{ANSWER_PARAMETER: answer})
        return await result if inspect.isawaitable(result) else result

    def call(self, state: object, arguments: Mapping[str, object], context: ToolContext) -> object:
        """Call the handler: (state?, **arguments, context?) or, for a wildcard, (name, arguments, context?)."""
        assert self.handler is not None, f"tool {self.name} has no handler"
        extra = {self.context_parameter: context} if self.context_parameter else {}
        if self.kind == "wildcard":
            return self.handler(context.tool_name, arguments, **extra)
        if self.state is not None:
            return self.handler(state, **arguments, **extra)
        return self.handler(**arguments, **extra)

    def ag_ui(self) -> AGUITool:
        """The tool as RunAgentInput.tools lists it."""
        return AGUITool(name=self.name, description=self.description, parameters=self.parameters)


def tool_from_function(
    function: Callable[..., object],
    *,
    name: str | None = None,
    description: str | None = None,
    state: type | None = None,
    kind: ToolKind = "function",
    exclude: tuple[str, ...] = (),
    **options: Any,
) -> Tool:
    """Declare a tool from a function's signature, type hints and docstring.

    The name "*" declares the wildcard: it takes (name, arguments) of every call no tool claims.
    Parameters named in `exclude` are not arguments the agent gives (the caller fills them); nor is
    a question's (kind "human") `answer` parameter, which receives the person's response.
    """
    summary, parameter_docs = _parse_docstring(inspect.getdoc(function) or "")
    hints = _parameter_hints(function, state)
    if name == "*" or kind == "wildcard":
        context_parameter = next((p for p, hint in hints.items() if hint is ToolContext), None)
        return Tool(
            name="*",
            description=description or summary,
            handler=function,
            kind="wildcard",
            context_parameter=context_parameter,
            **options,
        )
    parameters = list(inspect.signature(function).parameters.values())
    if state is not None:
        if not parameters:
            raise TypeError(f"{function.__name__} is declared with state= but takes no parameter for it")
        parameters = parameters[1:]
    fields: dict[str, Any] = {}  # Any: create_model takes field definitions and its own options as one **kwargs
    context_parameter = answer_type = None
    for parameter in parameters:
        if kind == "human" and parameter.name == ANSWER_PARAMETER:
            answer_type = hints.get(parameter.name, Any)
            continue
        if parameter.name in exclude:
            continue
        annotation = hints.get(parameter.name, Any)
        if annotation is ToolContext:
            context_parameter = parameter.name
            continue
        if parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD):
            raise TypeError(f"tool {function.__name__}: *args and **kwargs cannot be described to an agent")
        annotation = _described(annotation, parameter_docs.get(parameter.name))
        default = ... if parameter.default is inspect.Parameter.empty else parameter.default
        fields[parameter.name] = (annotation, default)
    tool_name = name or function.__name__
    model = create_model(tool_name, __config__=ConfigDict(extra="ignore", arbitrary_types_allowed=True), **fields)
    return Tool(
        name=tool_name,
        description=description if description is not None else summary,
        parameters=_described_to_the_agent(tool_name, model, fields),
        handler=function,
        kind=kind,
        state=state,
        arguments_model=model,
        context_parameter=context_parameter,
        answer_type=answer_type,
        **options,
    )


def _parameter_hints(function: Callable[..., object], state: type | None) -> dict[str, object]:
    """The evaluated type hints of the parameters (the return type is not needed, nor evaluated)."""
    local_names = {state.__name__: state} if state is not None else {}  # a state class defined in a function
    global_names = getattr(function, "__globals__", {})
    hints: dict[str, object] = {}
    for name, hint in inspect.get_annotations(function).items():
        if name == "return":
            continue
        try:
            hints[name] = eval(hint, global_names, local_names) if isinstance(hint, str) else hint
        except NameError as error:
            raise TypeError(
                f"tool {function.__name__}: the type of parameter {name!r} ({hint}) cannot be resolved ({error}); "
                "define the types a tool uses at module level"
            ) from None
    return hints


def _described_to_the_agent(tool_name: str, model: type[BaseModel], fields: dict[str, Any]) -> JSONObject:
    """The arguments' schema; a parameter of a type JSON Schema cannot describe (a plain class) is a DeclarationError
    naming it, where pydantic's error names neither the tool nor the parameter."""
    try:
        return json_schema(model)
    except PydanticUserError:
        for parameter, (annotation, _) in fields.items():
            try:
                TypeAdapter(annotation, config=ConfigDict(arbitrary_types_allowed=True)).json_schema()
            except PydanticUserError:
                shown = getattr(annotation, "__name__", repr(annotation))
                raise DeclarationError(
                    f"tool {tool_name}",
                    f"the type of its parameter {parameter} ({shown}) cannot be described to the agent",
                    takes="a parameter takes a type JSON Schema describes: str, int, float, bool, a list or a dict of "
                    "those, a Literal, an Enum, a TypedDict, a dataclass or a pydantic BaseModel",
                ) from None
        raise


def json_schema(model: type[BaseModel]) -> JSONObject:
    """An object schema with references inlined and pydantic's titles left out, as providers like it."""
    schema: JSONObject = model.model_json_schema()
    definitions = schema.pop("$defs", {})
    inlined = _inline(schema, definitions if isinstance(definitions, dict) else {}, set())
    if not isinstance(inlined, dict):  # an object's schema stays an object
        return {"type": "object", "properties": {}}
    inlined.setdefault("type", "object")
    inlined.setdefault("properties", {})
    return inlined


def _inline(node: JSON, definitions: JSONObject, seen: set[str]) -> JSON:
    if isinstance(node, list):
        return [_inline(item, definitions, seen) for item in node]
    if not isinstance(node, dict):
        return node
    reference = node.get("$ref")
    if isinstance(reference, str) and reference.startswith("#/$defs/"):
        key = reference.removeprefix("#/$defs/")
        if key in seen:  # a recursive model: an object, rather than a loop
            return {"type": "object"}
        definition = definitions.get(key)
        merged = {**(definition if isinstance(definition, dict) else {}), **{k: v for k, v in node.items() if k != "$ref"}}
        return _inline(merged, definitions, seen | {key})
    inlined: JSONObject = {}
    for key, value in node.items():
        if key == "title" and isinstance(value, str):
            continue  # pydantic's titles are noise to a model
        if key in ("properties", "$defs", "patternProperties") and isinstance(value, dict):
            inlined[key] = {name: _inline(schema, definitions, seen) for name, schema in value.items()}
        else:
            inlined[key] = _inline(value, definitions, seen)
    return inlined


def _described(annotation: object, doc: str | None) -> object:
    if get_origin(annotation) is Annotated:
        base, *metadata = get_args(annotation)
        texts = [item for item in metadata if isinstance(item, str)]
        rest = [item for item in metadata if not isinstance(item, str)]
        if texts:
            return Annotated[(base, *rest, Field(description=texts[0]))]
        return annotation
    if doc:
        return Annotated[annotation, Field(description=doc)]
    return annotation


_ARGS_HEADER = re.compile(r"^(Args|Arguments|Parameters):\s*$")
_ARG_LINE = re.compile(r"^\s+(\*{0,2}\w+)(?:\s*\([^)]*\))?:\s*(.*)$")


def _parse_docstring(doc: str) -> tuple[str, dict[str, str]]:
    """The summary (text before an Args section) and the description of each parameter (Google style)."""
    lines = doc.splitlines()
    start = next((index for index, line in enumerate(lines) if _ARGS_HEADER.match(line)), None)
    if start is None:
        return doc.strip(), {}
    described: dict[str, str] = {}
    current = None
    for line in lines[start + 1 :]:
        if line and not line[0].isspace():
            break
        match = _ARG_LINE.match(line)
        if match and (len(line) - len(line.lstrip())) <= 4:
            current = match.group(1).lstrip("*")
            described[current] = match.group(2).strip()
        elif current and line.strip():
            described[current] += " " + line.strip()
    return "\n".join(lines[:start]).strip(), described


def _takes_mapping(answer_type: object) -> bool:
    """Whether an answer of this type may be a dict of fields (a dict, a model, a TypedDict, a dataclass, Any)."""
    origin = get_origin(answer_type)
    if origin is Annotated:
        return _takes_mapping(get_args(answer_type)[0])
    if origin in (Union, types.UnionType):
        return any(_takes_mapping(arm) for arm in get_args(answer_type))
    kind = origin or answer_type
    if kind is Any or is_typeddict(kind) or dataclasses.is_dataclass(kind):
        return True
    return isinstance(kind, type) and issubclass(kind, (Mapping, BaseModel))


def _problem(item: ErrorDetails) -> str:
    where = ".".join(str(part) for part in item["loc"]) or "(the value)"
    return f"{where}: {item['msg']}"
