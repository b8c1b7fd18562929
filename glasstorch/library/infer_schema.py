"""The schema of a Python function, read from its type hints (torch.library.infer_schema)."""
from __future__ import annotations

import inspect
import typing
from collections.abc import Sequence
from typing import Callable, Iterable, Optional, Union

from ..c10.device import device as Device
from ..c10.dtype import dtype as DType
from .._tensor import Tensor

# Python annotation -> schema type, for arguments and returns alike
_SCALARS = {Tensor: "Tensor", int: "SymInt", float: "float", bool: "bool", str: "str",
            DType: "ScalarType", Device: "Device", Union[int, float, bool]: "Scalar"}
_LISTS = {Tensor: "Tensor[]", int: "SymInt[]", float: "float[]", bool: "bool[]"}


def _schema_type(annotation) -> Optional[str]:
    """The schema type of an annotation, or None when a schema cannot say it."""
    if annotation in _SCALARS:
        return _SCALARS[annotation]
    origin, parts = typing.get_origin(annotation), typing.get_args(annotation)
    if origin in (list, Sequence, typing.Sequence) and len(parts) == 1:
        return _LISTS.get(parts[0])
    if origin is Union and len(parts) == 2 and type(None) in parts:
        inner = _schema_type(next(p for p in parts if p is not type(None)))
        return None if inner is None else f"{inner}?"
    return None


def _default_text(value) -> str:
    if value is None or isinstance(value, (bool, int, float)):
        return str(value)
    if isinstance(value, str):
        return f'"{value}"'
    raise ValueError(f"unsupported default value {value!r}")


def _returns_text(annotation, fail: Callable) -> str:
    if annotation is None or annotation is type(None):
        return "()"
    if typing.get_origin(annotation) is tuple:
        parts = (_returns_text(part, fail) for part in typing.get_args(annotation))
        return f"({', '.join(parts)})"
    text = _schema_type(annotation)
    if text is None:
        fail(f"Return has unsupported type {annotation}.")
    return text


def infer_schema(prototype_function: Callable, /, *, mutates_args: Union[str, Iterable[str]],
                 op_name: Optional[str] = None) -> str:
    """The operator schema of `prototype_function`, from its type hints.

    Args:
        prototype_function: a function whose parameters and return are annotated with
            Tensor, int, float, bool, str, dtype, device, lists and Optionals of them.
        mutates_args: the names of the Tensor arguments it writes (``"unknown"``: all).
        op_name: put before the parenthesis when given.

    Returns:
        The schema text, e.g. ``"(Tensor x, float y) -> Tensor"``.

    Example::

        >>> def scale(x: torch.Tensor, alpha: float = 1.0) -> torch.Tensor: ...
        >>> torch.library.infer_schema(scale, mutates_args=())
        '(Tensor x, float alpha=1.0) -> Tensor'
    """
    signature = inspect.signature(prototype_function)
    hints = typing.get_type_hints(prototype_function)

    def fail(what: str):
        raise ValueError(f"infer_schema(func): {what} Got func with signature {signature})")

    params, keyword_only = [], False
    for index, (name, param) in enumerate(signature.parameters.items()):
        if name not in hints:
            fail(f"Parameter {name} must have a type annotation.")
        text = _schema_type(hints[name])
        if text is None:
            fail(f"Parameter {name} has unsupported type {hints[name]}.")
        if param.kind is param.KEYWORD_ONLY and not keyword_only:
            params.append("*")
            keyword_only = True
        if text.startswith("Tensor") and (mutates_args == "unknown" or name in mutates_args):
            text = text.replace("Tensor", f"Tensor(a{index}!)", 1)
        if param.default is not param.empty:
            name = f"{name}={_default_text(param.default)}"
        params.append(f"{text} {name}")
    if "return" not in hints and signature.return_annotation is signature.empty:
        fail("No return type annotation was provided. Please add one.")
    returns = _returns_text(hints.get("return"), fail)
    return f"{op_name or ''}({', '.join(params)}) -> {returns}"
