"""torch.testing.assert_close: compare possibly nested inputs, leaf by leaf.

# Note [Comparing in two passes]
#
# torch first walks both inputs together, checking the structure (sequence lengths,
# mapping keys) and choosing how each pair of leaves is compared (None, bool, number or
# tensor-like, in that order; none fitting is a TypeError), and only then compares the
# leaves, reporting the first failure. So a structural or type problem anywhere is
# reported before a value mismatch earlier in the walk; the two passes below keep that
# order. Each failure is a ComparisonError carrying its place in the containers.
"""
from __future__ import annotations

import cmath
import collections.abc
from typing import Any, Callable

import numpy

import glasstorch as torch
from . import _messages
from ._tensor_values import compare_tensors
from ._tolerances import NUMBER_DTYPES, ComparisonError, get_tolerances


class _Unsupported(Exception):
    """This kind of comparison does not take these inputs: try the next one."""


def _leaves(actual: Any, expected: Any, path: tuple = ()):
    """Yield (actual, expected, path) for each pair of leaves, checking the structure."""
    sequence, mapping = collections.abc.Sequence, collections.abc.Mapping
    if (isinstance(actual, sequence) and not isinstance(actual, str)
            and isinstance(expected, sequence) and not isinstance(expected, str)):
        if len(actual) != len(expected):
            raise ComparisonError(AssertionError, "The length of the sequences mismatch: "
                                  f"{len(actual)} != {len(expected)}", path)
        for index in range(len(actual)):
            yield from _leaves(actual[index], expected[index], (*path, index))
    elif isinstance(actual, mapping) and isinstance(expected, mapping):
        keys = set(actual.keys())
        if keys != set(expected.keys()):
            raise ComparisonError(AssertionError, (
                "The keys of the mappings do not match:\n"
                f"Missing keys in the actual mapping: {sorted(set(expected.keys()) - keys)}\n"
                f"Additional keys in the actual mapping: {sorted(keys - set(expected.keys()))}"),
                path)
        try:
            keys = sorted(keys)
        except Exception:           # noqa: BLE001 (unorderable keys keep the set's order)
            pass
        for key in keys:
            yield from _leaves(actual[key], expected[key], (*path, key))
    else:
        yield actual, expected, path


def _compare_none(actual, expected, path, options) -> Callable:
    if actual is not None and expected is not None:
        raise _Unsupported
    def compare():
        if not (actual is None and expected is None):
            raise ComparisonError(AssertionError,
                                  f"None mismatch: {actual} is not {expected}", path)
    return compare


def _compare_bool(actual, expected, path, options) -> Callable:
    kinds = (bool, numpy.bool_)
    if not (isinstance(actual, kinds) and isinstance(expected, kinds)):
        raise _Unsupported
    actual, expected = bool(actual), bool(expected)
    def compare():
        if actual is not expected:
            raise ComparisonError(AssertionError,
                                  f"Booleans mismatch: {actual} is not {expected}", path)
    return compare


def _compare_number(actual, expected, path, options) -> Callable:
    kinds = (int, float, complex, numpy.number)
    if not (isinstance(actual, kinds) and isinstance(expected, kinds)):
        raise _Unsupported
    actual, expected = (v.item() if isinstance(v, numpy.number) else v for v in (actual, expected))
    rtol, atol = get_tolerances(*(NUMBER_DTYPES[type(v)] for v in (actual, expected)),
                                rtol=options["rtol"], atol=options["atol"], path=path)
    def compare():
        if options["check_dtype"] and type(actual) is not type(expected):
            raise ComparisonError(AssertionError, "The (d)types do not match: "
                                  f"{type(actual)} != {type(expected)}.", path)
        if actual == expected or (options["equal_nan"] and cmath.isnan(actual)
                                  and cmath.isnan(expected)):
            return
        difference = abs(actual - expected)
        if cmath.isfinite(difference) and difference <= atol + rtol * abs(expected):
            return
        raise ComparisonError(AssertionError, _messages.scalar_mismatch(
            actual, expected, rtol=rtol, atol=atol), path)
    return compare


def _compare_tensor_like(actual, expected, path, options) -> Callable:
    related = isinstance(actual, type(expected)) or isinstance(expected, type(actual))
    if not related or (not options["allow_subclasses"] and type(actual) is not type(expected)):
        raise _Unsupported
    actual, expected = (_as_tensor(v) for v in (actual, expected))
    rtol, atol = get_tolerances(actual, expected, rtol=options["rtol"], atol=options["atol"],
                                path=path)
    return lambda: compare_tensors(actual, expected, rtol, atol, path, options)


def _as_tensor(value):
    if isinstance(value, torch.Tensor):
        return value
    try:
        return torch.as_tensor(value)
    except Exception:               # noqa: BLE001 (not tensor-like: another kind may fit)
        raise _Unsupported from None


_KINDS = (_compare_none, _compare_bool, _compare_number, _compare_tensor_like)


def _comparison(actual, expected, path, options) -> Callable:
    """The first kind of comparison that takes this pair of leaves, ready to run."""
    for kind in _KINDS:
        try:
            return kind(actual, expected, path, options)
        except _Unsupported:
            continue
    raise ComparisonError(TypeError, "No comparison pair was able to handle inputs of type "
                          f"{type(actual)} and {type(expected)}.", path)


def assert_close(actual: Any, expected: Any, *, allow_subclasses: bool = True,
                 rtol: float | None = None, atol: float | None = None,
                 equal_nan: bool = False, check_device: bool = True, check_dtype: bool = True,
                 check_layout: bool = True, check_stride: bool = False,
                 msg: str | Callable[[str], str] | None = None) -> None:
    """Assert that `actual` and `expected` are close: ``|a - e| <= atol + rtol * |e|``.

    Tensors, NumPy arrays, Python and NumPy numbers, bools and None are compared, and
    (possibly nested) sequences and mappings of them, element by element. Tensors must
    agree in shape, and by default in dtype, device and layout; omitted tolerances come
    from the dtypes (float32: rtol 1.3e-6, atol 1e-5; float64: 1e-7, 1e-7; integers:
    exact).

    Args:
        actual (Any): the value computed.
        expected (Any): the value it should be close to.
        allow_subclasses (bool): compare tensor subclasses with their bases. Default: ``True``
        rtol (float, optional): relative tolerance; give `atol` too.
        atol (float, optional): absolute tolerance; give `rtol` too.
        equal_nan (bool): count two NaN as equal. Default: ``False``
        check_device (bool): require the same device. Default: ``True``
        check_dtype (bool): require the same dtype (else promote both). Default: ``True``
        check_layout (bool): require the same layout. Default: ``True``
        check_stride (bool): require the same strides. Default: ``False``
        msg (str or Callable, optional): the message to raise, or a function of the
            message assert_close would raise.

    Raises:
        AssertionError: the inputs are not close, or differ in a checked attribute.
        TypeError, ValueError: inputs that cannot be compared, or a lone tolerance.

    Example::

        >>> torch.testing.assert_close(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.0 + 1e-7]))
    """
    __tracebackhide__ = True
    options = dict(allow_subclasses=allow_subclasses, rtol=rtol, atol=atol, equal_nan=equal_nan,
                   check_device=check_device, check_dtype=check_dtype,
                   check_layout=check_layout, check_stride=check_stride)
    try:
        comparisons = [_comparison(a, e, path, options) for a, e, path in _leaves(actual, expected)]
        for compare in comparisons:
            compare()
    except ComparisonError as failure:
        raise failure.to_error(msg) from None
