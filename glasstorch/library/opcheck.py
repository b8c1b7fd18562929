"""torch.library.opcheck: tests that an operator is registered consistently.

Each test runs the operator on copies of the sample inputs and checks one promise:
``test_schema``, that it writes only the arguments its schema marks as written;
``test_autograd_registration``, that its outputs require grad only through a kernel at
an autograd key; ``test_faketensor``, that its Meta kernel (fake implementation)
describes the real outputs' shapes and dtypes. torch's ``test_aot_dispatch_*`` run the
operator through AOTAutograd, which glasstorch does not have: here they run it eagerly,
forward and backward, which catches what they catch of a missing or failing backward.
"""
from __future__ import annotations

from typing import Any, Optional, Sequence, Union

from ..autograd.grad_mode import no_grad
from ..c10.dispatch_key import DispatchKey
from .._tensor import Tensor
from .definitions import REGISTERED_KEY_NAMES, resolve_overload

DEFAULT_TEST_UTILS = ("test_schema", "test_autograd_registration", "test_faketensor",
                      "test_aot_dispatch_dynamic")
ALL_TEST_UTILS = ("test_schema", "test_autograd_registration", "test_faketensor",
                  "test_aot_dispatch_static", "test_aot_dispatch_dynamic")


class OpCheckError(Exception):
    """An opcheck test failed."""


class MetadataMismatchError(RuntimeError):
    """A fake implementation describes the outputs differently from the real kernel."""


def _copy(value, device=None):
    """`value` with each tensor in it copied (to `device`: meta copies hold no data)."""
    if isinstance(value, Tensor):
        if device == "meta":
            copy = value.new_empty(value.shape, device="meta")
        else:
            copy = value.detach().clone()
        return copy.requires_grad_(value.requires_grad) if copy.is_floating_point() else copy
    if isinstance(value, (list, tuple)):
        return type(value)(_copy(item, device) for item in value)
    if isinstance(value, dict):
        return {key: _copy(item, device) for key, item in value.items()}
    return value


def _tensors(value) -> list:
    if isinstance(value, Tensor):
        return [value]
    if isinstance(value, (list, tuple)):
        return [t for item in value for t in _tensors(item)]
    if isinstance(value, dict):
        return [t for item in value.values() for t in _tensors(item)]
    return []


def _name(op) -> str:
    return f"{op.namespace}.{op.overloadpacket._name}.{op._schema.overload_name or 'default'}"


def check_schema(op, args: tuple, kwargs: dict) -> None:
    args, kwargs = _copy(args), _copy(kwargs)
    bound = dict(zip((a.name for a in op._schema.arguments), args)) | kwargs
    before = {name: value.detach().clone() for name, value in bound.items()
              if isinstance(value, Tensor)}
    with no_grad():
        op(*args, **kwargs)
    for argument in op._schema.arguments:
        if argument.name in before and not argument.is_write and \
                not before[argument.name].equal(bound[argument.name]):
            raise RuntimeError(f"Argument {argument.name} is not defined as mutable but "
                               f"was mutated")


def check_autograd_registration(op, args: tuple, kwargs: dict) -> None:
    args, kwargs = _copy(args), _copy(kwargs)
    inputs = _tensors((args, kwargs))
    if not any(t.requires_grad for t in inputs) or op.kernels.get(DispatchKey.Autograd) \
            or "CompositeImplicitAutograd" in REGISTERED_KEY_NAMES.get(op, ()):
        return
    ids = {id(t) for t in inputs}
    if any(t.requires_grad and id(t) not in ids for t in _tensors(op(*args, **kwargs))):
        raise AssertionError(
            f"{op.namespace}::{op.name}: at least one output of this operator has "
            f"requires_grad=True but the operator does not have an autograd kernel defined "
            f"at an autograd key (e.g. DispatchKey::Autograd).")


def check_fake(op, args: tuple, kwargs: dict) -> None:
    with no_grad():
        real = _tensors(op(*_copy(args), **_copy(kwargs)))
        fake = _tensors(op(*_copy(args, "meta"), **_copy(kwargs, "meta")))
    for r, f in zip(real, fake):
        for what, mine, theirs in (("Shapes", r.shape, f.shape), ("Dtypes", r.dtype, f.dtype)):
            if mine != theirs:
                raise MetadataMismatchError(
                    f"When comparing the output of {_name(op)} on FakeTensor and concrete "
                    f"Tensors, found mismatched tensor metadata: {what} {mine} and {theirs} "
                    f"are not equal!")


def check_forward_backward(op, args: tuple, kwargs: dict) -> None:
    """Forward and backward eagerly, then the forward on meta copies (tracing, which
    torch's AOT tests do, needs the fake implementation)."""
    copied, copied_kwargs = _copy(args), _copy(kwargs)
    outputs = [t for t in _tensors(op(*copied, **copied_kwargs)) if t.requires_grad]
    if outputs:
        sum(t.sum() for t in outputs).backward()
    with no_grad():
        op(*_copy(args, "meta"), **_copy(kwargs, "meta"))


_TESTS = {"test_schema": check_schema, "test_autograd_registration": check_autograd_registration,
          "test_faketensor": check_fake, "test_aot_dispatch_static": check_forward_backward,
          "test_aot_dispatch_dynamic": check_forward_backward}


def opcheck(op, args: tuple, kwargs: Optional[dict] = None, *,
            test_utils: Union[str, Sequence[str]] = DEFAULT_TEST_UTILS,
            raise_exception: bool = True, rtol=None, atol=None) -> dict:
    """Run the registration tests `test_utils` on `op` with the sample `args`.

    Returns:
        Test name -> ``"SUCCESS"``, or the exception it failed with (when not
        `raise_exception`).

    Raises:
        OpCheckError: a test failed, with `raise_exception`.
    """
    if (rtol is None) ^ (atol is None):
        raise ValueError("opcheck(op, ...): if you specify one of rtol/atol, you must "
                         "specify both")
    op = resolve_overload(op) if not hasattr(op, "_overloads") else \
        next(iter(op._overloads.values()))
    tests = ALL_TEST_UTILS if test_utils == "ALL" else \
        (test_utils,) if isinstance(test_utils, str) else test_utils
    if not isinstance(tests, (tuple, list)) or not set(tests) <= set(ALL_TEST_UTILS):
        raise ValueError(f"opcheck(op, ..., test_utils={test_utils}), expected test_utils "
                         f"to be subset of {ALL_TEST_UTILS} but it was not")
    results: dict[str, Any] = {}
    for test in tests:
        try:
            _TESTS[test](op, args, kwargs or {})
            results[test] = "SUCCESS"
        except Exception as error:
            if raise_exception:
                raise OpCheckError(f"opcheck(op, ...): {test} failed with {error} "
                                   f"(scroll up for stack trace)") from error
            results[test] = error
    return results
