"""The OpInfo record and the helpers its entries and the generic tests share.

An `OpInfo` describes one operator: how to call it, its NumPy reference, the dtypes it
takes, a generator of sample inputs and one of inputs that must fail. The generic tests
(`test_generic.py`, `test_differential.py`) derive every check from these records, so
an operator is tested by declaring what it is, not by writing tests for it.

Tensors in samples are glasstorch tensors with an exact geometry (sizes, strides,
storage offset); `convert.py` moves them to meta and to real torch with that geometry.
"""
from __future__ import annotations

import importlib
import pathlib
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Callable

import numpy as np
import pytest

import glasstorch as gt
from glasstorch.aten.native import load_all

load_all()          # the entries cover every declaration: all families, not just the core's

from .convert import numpy_dtype, to_numpy

BOOL = (gt.bool,)
INTEGRAL = (gt.uint8, gt.int8, gt.int16, gt.int32, gt.int64)
FLOATING = (gt.float16, gt.bfloat16, gt.float32, gt.float64)
COMPLEX = (gt.complex64, gt.complex128)
ALL_DTYPES = BOOL + INTEGRAL + FLOATING + COMPLEX

# The standard sizes: 0-dim, empty, 1- to 3-dim, size-1 dims, an empty middle dim.
SHAPES = ((), (0,), (5,), (3, 4), (2, 3, 4), (1, 3, 1), (4, 0, 2))
# Shape pairs for binary ops: equal, broadcasting either way, 0-dim with n-dim, empty.
BROADCAST_PAIRS = (((3, 4), (3, 4)), ((3, 4), (4,)), ((4,), (3, 4)), ((2, 1, 4), (3, 1)),
                   ((), (2, 3)), ((5,), ()), ((), ()), ((0, 3), (1, 3)), ((1,), (4, 0, 2)))
SENTINEL = 77          # fills the storage gaps of strided layouts: reading one shows


class SampleInput:
    """The arguments of one call: ``SampleInput(x, 0, 1, keepdim=True)``."""

    def __init__(self, *args, **kwargs) -> None:
        self.args = args
        self.kwargs = kwargs
        self.known_bug = None

    def known(self, bug: str) -> "SampleInput":
        """Mark this sample as hitting a known glasstorch bug (say whose): the tests
        skip it, and `test_known_bugs_still_differ` checks that torch still disagrees."""
        self.known_bug = bug
        return self

    @property
    def input(self):
        return self.args[0]

    def tensors(self) -> list:
        """Every tensor among the arguments, in order."""
        found = []
        map_leaves(self.args + tuple(self.kwargs.values()), lambda t: found.append(t) or t)
        return found

    def map(self, fn: Callable) -> "SampleInput":
        """A new sample with `fn` applied to every tensor (other values stay)."""
        return SampleInput(*map_leaves(self.args, fn), **map_leaves(self.kwargs, fn))

    def __repr__(self) -> str:
        parts = [_describe(a) for a in self.args]
        parts += [f"{k}={_describe(v)}" for k, v in self.kwargs.items()]
        return f"SampleInput({', '.join(parts)})"


@dataclass
class ErrorInput:
    """A sample that must raise `error_type` with a message matching `match` (a regex).

    `known_bug` names a known glasstorch deviation (and its owner): the tests then
    expect the failure (strict xfail), so the fix is noticed. `known_bug_on_meta` is
    the same for the input moved to meta tensors (where torch skips data checks).
    """

    sample: SampleInput
    error_type: type
    match: str
    known_bug: str | None = None
    known_bug_on_meta: str | None = None


@dataclass
class OpInfo:
    """Everything the generic tests need to know about one operator (see README.md)."""

    name: str                                   # aten name, a key of DECLARATIONS
    variants: tuple                             # "fn", "Tensor.fn", "ops.aten.fn.overload"
    ref: Callable                               # NumPy reference
    sample_inputs: Callable                     # dtype -> iterable of SampleInput
    error_inputs: Callable = lambda: ()         # () -> iterable of ErrorInput
    dtypes: tuple = ALL_DTYPES
    out: str | None = None                      # the variant accepting out=
    out_warns_on_resize: bool = True            # factories resize a wrong out= silently
    inplace: str | None = None                  # the in-place twin of a functional op
    mutates_input: bool = False                 # the op writes its first argument
    inplace_view: bool = False                  # ...its geometry (t_, squeeze_): may reshape
    is_view: bool = False
    view_has_base: bool = True                  # False for detach: aliases, but no _base
    is_factory: bool = False
    out_sets_dtype: bool = False                # out='s dtype is the result's (sum, prod)
    layout_sensitive: bool = False              # values depend on the input's strides
    values_defined: bool = True                 # False for empty: compare metadata only
    covers: tuple = ()                          # other declarations exercised through it
    marks: dict = field(default_factory=dict)   # test name -> pytest mark

    def __call__(self, sample: SampleInput, module=gt):
        """Call the primary variant (the first one) on `sample`."""
        return self.call(self.variants[0], sample, module)

    def call(self, variant: str, sample: SampleInput, module=gt, **extra):
        """Call one variant, resolved on `module` (glasstorch or torch)."""
        return resolve(variant, module)(*sample.args, **sample.kwargs, **extra)

    def reference(self, sample: SampleInput):
        """The reference result: `ref` on the sample with tensors as ndarrays."""
        return self.ref(*map_leaves(sample.args, to_numpy),
                        **map_leaves(sample.kwargs, to_numpy))

    def __repr__(self) -> str:
        return self.name


def resolve(variant: str, module) -> Callable:
    """``"Tensor.view"`` -> a function calling the method; ``"ops.aten.t.default"`` ->
    that attribute path on `module`."""
    if variant.startswith("Tensor."):
        method = variant[len("Tensor."):]
        return lambda self, *args, **kwargs: getattr(self, method)(*args, **kwargs)
    target = module
    for part in variant.split("."):
        target = getattr(target, part)
    return target


def map_leaves(value, fn: Callable):
    """Apply `fn` to every glasstorch tensor inside nested tuples, lists and dicts."""
    if isinstance(value, gt.Tensor):
        return fn(value)
    if isinstance(value, (tuple, list)):
        return type(value)(map_leaves(v, fn) for v in value)
    if isinstance(value, dict):
        return {k: map_leaves(v, fn) for k, v in value.items()}
    return value


def _describe(value) -> str:
    if isinstance(value, gt.Tensor):
        return (f"Tensor(size={tuple(value.shape)}, stride={value.stride()}, "
                f"offset={value.storage_offset()}, {value.dtype})")
    return repr(value)


# ----------------------------------------------------------------------------------
# Making sample tensors
# ----------------------------------------------------------------------------------
def random_values(shape: tuple, dtype, low=None, high=None, seed: int = 0) -> np.ndarray:
    """Deterministic values of `dtype`: small integers, or floats in [low, high)."""
    return _random_values(tuple(shape), dtype, low, high, seed).copy()


@lru_cache(maxsize=4096)
def _random_values(shape: tuple, dtype, low, high, seed: int) -> np.ndarray:
    rng = np.random.default_rng([seed, len(shape), *shape])
    if dtype is gt.bool:
        return rng.integers(0, 2, shape).astype(bool)
    unsigned = numpy_dtype(dtype).kind == "u"
    low = (0 if unsigned else -9) if low is None else low
    high = 10 if high is None else high
    if not (dtype.is_floating_point or dtype.is_complex):
        return rng.integers(low, high, shape).astype(numpy_dtype(dtype))
    values = rng.uniform(low, high, shape)
    if dtype.is_complex:
        values = values + 1j * rng.uniform(low, high, shape)
    return values.astype(numpy_dtype(dtype))


def make_tensor(shape: tuple, dtype, layout: str = "contiguous", **value_range):
    """A tensor of `shape` with random values, laid out as asked.

    Args:
        shape: the sizes.
        dtype: a glasstorch dtype.
        layout: ``contiguous``; ``transposed`` (column-major strides); ``strided``
            (every stride doubled and a storage offset of 1, gaps hold `SENTINEL`);
            ``expanded`` (dim 0 broadcast from size 1 with stride 0).
        value_range: ``low`` / ``high`` / ``seed`` for `random_values`.
    """
    shape = tuple(shape)
    if layout == "expanded":
        base = make_tensor((1,) + shape[1:], dtype, **value_range)
        return base.expand(shape)
    values = random_values(shape, dtype, **value_range)
    if layout == "contiguous":
        return gt.from_numpy(np.array(values, order="C"))
    if layout == "transposed":
        return gt.from_numpy(np.asfortranarray(values))
    if layout == "strided":
        return _strided(values)
    raise ValueError(f"unknown layout {layout!r}")


def _strided(values: np.ndarray):
    """`values` in a storage with doubled strides and offset 1; gaps hold SENTINEL."""
    stride = tuple(2 * s for s in _contiguous_strides(values.shape))
    span = 1 + sum((n - 1) * s for n, s in zip(values.shape, stride)) if values.size else 0
    storage = np.full(span + 2, SENTINEL).astype(values.dtype)
    item = values.dtype.itemsize
    window = np.lib.stride_tricks.as_strided(storage[1:], values.shape,
                                             tuple(s * item for s in stride))
    window[...] = values
    return gt.from_numpy(storage).as_strided(values.shape, stride, 1)


def _contiguous_strides(shape: tuple) -> tuple:
    strides, step = [], 1
    for n in reversed(shape):
        strides.append(step)
        step *= max(n, 1)
    return tuple(reversed(strides))


def layouts_for(shape: tuple) -> tuple:
    """The layouts that differ from contiguous for `shape` (plus contiguous itself)."""
    chosen = ["contiguous"]
    if len(shape) >= 2 and sorted(shape)[-2] > 1:
        chosen.append("transposed")
    if 0 not in shape and shape:
        chosen.append("strided")
    if shape and shape[0] > 1:
        chosen.append("expanded")
    return tuple(chosen)


def tensors(dtype, shapes: tuple = SHAPES, **value_range):
    """The standard sample tensors: every shape in every layout that makes a difference."""
    for shape in shapes:
        for layout in layouts_for(shape):
            yield make_tensor(shape, dtype, layout, **value_range)


def tensor_pairs(dtype, other_dtype=None, **value_range):
    """Pairs of tensors for binary ops: every `BROADCAST_PAIRS` shape pair, the first
    in every layout of its shape, the second contiguous (of `other_dtype` if given)."""
    for shape, other_shape in BROADCAST_PAIRS:
        for layout in layouts_for(shape):
            yield (make_tensor(shape, dtype, layout, **value_range),
                   make_tensor(other_shape, other_dtype or dtype, seed=1, **value_range))


def noncontiguous(t):
    """A copy of `t` with the same values and non-contiguous strides (gaps hold SENTINEL)."""
    return _strided(np.array(to_numpy(t)))


def contiguous_copy(t):
    """A fresh contiguous copy of `t`, built through NumPy (not through any op)."""
    return gt.from_numpy(np.array(to_numpy(t), order="C"))


# ----------------------------------------------------------------------------------
# The database and the parametrization
# ----------------------------------------------------------------------------------
@lru_cache(maxsize=None)
def database() -> tuple:
    """Every entry of every ``<topic>/db_*.py`` file below this folder (the topics are
    those of glasstorch/aten/native/)."""
    entries = []
    for path in sorted(pathlib.Path(__file__).parent.glob("*/db_*.py")):
        module = importlib.import_module(f"{__package__}.{path.parent.name}.{path.stem}")
        entries.extend(module.OPS)
    return tuple(entries)


SUBSYSTEM_DTYPES = (gt.bool, gt.uint8, gt.int64, gt.bfloat16, gt.float32, gt.complex128)


def ops(select: Callable = lambda op: True):
    """Parametrize a test over the selected entries, applying each entry's marks for
    that test (``marks={"test_meta": ...}``)."""
    def decorate(test):
        params = [pytest.param(entry, id=entry.name, marks=entry.marks.get(test.__name__, ()))
                  for entry in database() if select(entry)]
        return pytest.mark.parametrize("op", params)(test)
    return decorate


def cases(op: OpInfo, spread: tuple | None = None):
    """(dtype, sample) pairs of `op`, leaving out samples marked with a known bug.

    Without `spread`: every sample of every dtype. With `spread` (a tuple of dtypes),
    each sample position runs once, in one of those dtypes (of the op's), taking them
    in turn: every layout and every dtype still occur, at a fraction of the cost.
    """
    chosen = [d for d in op.dtypes if spread is None or d in spread] or op.dtypes[:1]
    for turn, dtype in enumerate(chosen):
        for i, sample in enumerate(op.sample_inputs(dtype)):
            mine = spread is None or i % len(chosen) == turn
            if mine and sample.known_bug is None:
                yield dtype, sample


def known_bug_cases(op: OpInfo):
    """The samples `cases` leaves out: those marked with a known bug."""
    for dtype in [d for d in op.dtypes if d in SUBSYSTEM_DTYPES] or op.dtypes[:1]:
        for sample in op.sample_inputs(dtype):
            if sample.known_bug is not None:
                yield dtype, sample


@contextmanager
def about(dtype, sample):
    """Name the dtype and sample in any failure raised inside."""
    try:
        yield
    except BaseException as error:
        error.add_note(f"dtype={dtype}, {sample!r}")
        raise


def error_cases(known_bug: str | None = "known_bug"):
    """Parametrize a test over (op, error input) of every entry. The error input's
    attribute named `known_bug` (``known_bug`` or ``known_bug_on_meta``; None for
    tests of the database itself) becomes a strict xfail."""
    def decorate(test):
        params = []
        for entry in database():
            for i, error in enumerate(entry.error_inputs()):
                reason = getattr(error, known_bug) if known_bug else None
                marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
                params.append(pytest.param(entry, error, id=f"{entry.name}-{i}", marks=marks))
        return pytest.mark.parametrize("op, error", params)(test)
    return decorate
