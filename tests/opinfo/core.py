"""The OpInfo record and the helpers its entries and the generic tests share.

An `OpInfo` describes one operator: how to call it, its NumPy reference, the dtypes it
takes, a generator of sample inputs and one of inputs that must fail. The generic tests
(`test_generic.py`, `test_differential.py`) derive every check from these records, so
an operator is tested by declaring what it is, not by writing tests for it.

Tensors in samples are glasstorch tensors with an exact geometry (sizes, strides,
storage offset). `to_meta` and `to_torch` rebuild that geometry over a new storage
(`storage_view` + `as_strided`), so the same sample runs on `meta` and on real torch.
"""
from __future__ import annotations

import importlib
import pathlib
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Callable

import ml_dtypes  # noqa: F401  (registers bfloat16 / float8 with NumPy)
import numpy as np
import pytest

import glasstorch as gt

BOOL = (gt.bool,)
INTEGRAL = (gt.uint8, gt.int8, gt.int16, gt.int32, gt.int64)
FLOATING = (gt.float16, gt.bfloat16, gt.float32, gt.float64)
COMPLEX = (gt.complex64, gt.complex128)
ALL_DTYPES = BOOL + INTEGRAL + FLOATING + COMPLEX

# The standard sizes: 0-dim, empty, 1- to 3-dim, size-1 dims, an empty middle dim.
SHAPES = ((), (0,), (5,), (3, 4), (2, 3, 4), (1, 3, 1), (4, 0, 2))
LAYOUTS = ("contiguous", "transposed", "strided", "expanded")
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
    is_view: bool = False
    view_has_base: bool = True                  # False for detach: aliases, but no _base
    is_factory: bool = False
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
def numpy_dtype(dtype) -> np.dtype:
    """The NumPy dtype of the same name (ml_dtypes provides bfloat16 and float8)."""
    return np.dtype(_torch_name(dtype))


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
        value_range: ``low`` / ``high`` for `random_values`.
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


def noncontiguous(t):
    """A copy of `t` with the same values and non-contiguous strides (gaps hold SENTINEL)."""
    return _strided(np.array(to_numpy(t)))


def contiguous_copy(t):
    """A fresh contiguous copy of `t`, built through NumPy (not through any op)."""
    return gt.from_numpy(np.array(to_numpy(t), order="C"))


# ----------------------------------------------------------------------------------
# Moving a tensor's exact geometry to another storage: meta, real torch
# ----------------------------------------------------------------------------------
def storage_view(t):
    """The whole storage of `t` as a flat tensor of `t`'s dtype (works for torch too)."""
    count = t.untyped_storage().nbytes() // t.element_size()
    return t.as_strided((count,), (1,), 0)


def rebuild(t, flat):
    """`t`'s geometry (sizes, strides, offset) over the flat tensor `flat`."""
    return flat.as_strided(tuple(t.shape), t.stride(), t.storage_offset())


def to_meta(t):
    """`t` on the meta device, with the same sizes, strides and storage offset."""
    count = t.untyped_storage().nbytes() // t.element_size()
    return rebuild(t, gt.empty(count, dtype=t.dtype, device="meta"))


def to_numpy(t) -> np.ndarray:
    """The values of a glasstorch or torch tensor as an ndarray (any dtype; for
    glasstorch it views the tensor's memory)."""
    dtype = numpy_dtype(t.dtype)
    if isinstance(t, gt.Tensor):
        if dtype.kind in "biufc":
            return t.numpy()
        bits = getattr(gt, f"int{8 * dtype.itemsize}")     # NumPy has no bfloat16
        return t.view(bits).numpy().view(dtype)
    torch = _torch_module(t)
    flat = t.detach().reshape(-1).clone(memory_format=torch.contiguous_format)
    flat = flat.view(torch.uint8)
    return flat.numpy().view(dtype).reshape(tuple(t.shape))


def _torch_module(t):
    return importlib.import_module(type(t).__module__.split(".")[0])


def to_torch(value, torch):
    """Convert glasstorch tensors (same bytes, same geometry), dtypes, devices, memory
    formats and layouts inside `value` to their real-torch counterparts."""
    if isinstance(value, gt.Tensor):
        dtype = getattr(torch, _torch_name(value.dtype))
        if value.device.type == "meta":
            count = value.untyped_storage().nbytes() // value.element_size()
            return rebuild(value, torch.empty(count, dtype=dtype, device="meta"))
        data = np.array(to_numpy(storage_view(value))).view(np.uint8)
        return rebuild(value, torch.from_numpy(data).view(dtype))
    if isinstance(value, (gt.dtype, gt.memory_format, gt.layout)):
        return getattr(torch, _torch_name(value))
    if isinstance(value, gt.device):
        return torch.device(str(value))
    if isinstance(value, (tuple, list)):
        return type(value)(to_torch(v, torch) for v in value)
    if isinstance(value, dict):
        return {k: to_torch(v, torch) for k, v in value.items()}
    return value


def _torch_name(value) -> str:
    return str(value).removeprefix("torch.")


# ----------------------------------------------------------------------------------
# Comparing
# ----------------------------------------------------------------------------------
TOLERANCES = {"float16": (1e-3, 1e-5), "bfloat16": (1.6e-2, 1e-5),
              "float32": (1.3e-6, 1e-5), "float64": (1e-7, 1e-7),
              "complex64": (1.3e-6, 1e-5), "complex128": (1e-7, 1e-7)}


def assert_values(actual, expected, dtype_name: str = "", exact: bool = False) -> None:
    """Same shape and values (NaNs equal); floats within torch's default tolerances."""
    actual = _as_array(actual)
    expected = _as_array(expected)
    assert actual.shape == expected.shape, f"shape {actual.shape} != {expected.shape}"
    if np.array_equal(actual, expected, equal_nan=actual.dtype.kind in "fc"):
        return
    tolerance = None if exact else TOLERANCES.get(dtype_name)
    if tolerance is None:
        np.testing.assert_array_equal(actual, expected)          # explains the mismatch
    elif not np.allclose(actual, expected, *tolerance, equal_nan=True):
        np.testing.assert_allclose(actual, expected, *tolerance, equal_nan=True)


def _as_array(value) -> np.ndarray:
    array = to_numpy(value) if hasattr(value, "dtype") and hasattr(value, "stride") \
        else np.asarray(value)
    if array.dtype.kind not in "biufc":          # bfloat16 / float8 (ml_dtypes)
        with np.errstate(invalid="ignore"):     # NaN bit patterns from view(dtype)
            array = array.astype(np.float64)
    return array


def dtype_of(array) -> "gt.dtype":
    """The glasstorch dtype of an ndarray."""
    return getattr(gt, np.asarray(array).dtype.name)


def snapshot(sample: SampleInput) -> list:
    """What a failing call must leave unchanged: each tensor's values (none on meta),
    geometry and version."""
    return [(None if t.device.type == "meta" else np.array(to_numpy(t)), tuple(t.shape),
             t.stride(), t.storage_offset(), t._version) for t in sample.tensors()]


def assert_unchanged(before: list, sample: SampleInput) -> None:
    for (values, *geometry), now in zip(before, snapshot(sample)):
        assert tuple(geometry) == now[1:], f"a failing call changed {geometry} into {now[1:]}"
        if values is not None:
            np.testing.assert_array_equal(now[0], values, "a failing call wrote to its input")


# ----------------------------------------------------------------------------------
# The database and the parametrization
# ----------------------------------------------------------------------------------
@lru_cache(maxsize=None)
def database() -> tuple:
    """Every entry of every ``db_*.py`` file in this folder."""
    entries = []
    for path in sorted(pathlib.Path(__file__).parent.glob("db_*.py")):
        module = importlib.import_module(f"{__package__}.{path.stem}")
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


def cases(op: OpInfo, dtypes: tuple | None = None):
    """(dtype, sample) for every sample of every dtype of `op` (or of `dtypes` among
    them); samples marked with a known bug are left to `known_bug_cases`."""
    chosen = [d for d in op.dtypes if dtypes is None or d in dtypes] or op.dtypes[:1]
    for dtype in chosen:
        for sample in op.sample_inputs(dtype):
            if sample.known_bug is None:
                yield dtype, sample


def known_bug_cases(op: OpInfo):
    """The samples `cases` leaves out: those marked with a known bug."""
    for dtype in op.dtypes:
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
