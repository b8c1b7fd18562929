"""Random factories: rand, randn, randint, randperm, and the *_like forms.

Each is torch's composition `empty(size).<in-place sampler>(..., generator)`: the
meta rule is the factory's plus the sampler's checks, the kernel the sampler's
fill, so the draws are exactly those of the in-place op (`random.py`). Every
factory has a twin overload taking a required ``generator=`` (``rand.generator``),
as in native_functions.yaml; the bindings pick it when ``generator=`` is passed.
"""
from __future__ import annotations

import numpy as np

from ....c10 import dtype as dtypes
from ....c10.device import device_type
from ....c10.generator import generator_or_default
from ....c10.promotion import get_default_dtype
from ...registry import TensorMeta, composite, op
from ..creation.copy import checked_scalar
from ..creation.factory import TENSOR_OPTIONS, check_options, check_sizes, empty_like
from .fill import (FLOATING, fill_normal, fill_random, fill_uniform, normal_,
                     not_implemented, random_from, random_plan, uniform_)

def _factory_dtype(dtype, layout, pin_memory, out):
    dtype = out._dtype if out is not None else (dtype or get_default_dtype())
    check_options(layout, pin_memory, dtype)
    return dtype


# ----------------------------------------------------------------------------------
# rand / randn
# ----------------------------------------------------------------------------------
def _rand_meta(size, dtype=None, layout=None, device=None, pin_memory=None, out=None):
    dtype = _factory_dtype(dtype, layout, pin_memory, out)
    size = check_sizes(size)
    real = dtype.to_real() if dtype.is_complex else dtype
    if real not in FLOATING:
        raise not_implemented("check_uniform_bounds", real)
    return TensorMeta(size, dtype)


@op(f"rand(SymInt[] size, *, {TENSOR_OPTIONS}) -> Tensor", meta=_rand_meta, out=True)
def rand(size, dtype, layout, device, pin_memory, *, out):
    """A tensor of numbers drawn uniformly from [0, 1).

    Args:
        size: the sizes, as varargs or one sequence.
        generator: the source of randomness (default: `torch.default_generator`).
        dtype: a floating or complex dtype (default: `torch.get_default_dtype()`).

    Example::

        >>> torch.manual_seed(0)
        >>> torch.rand(2, 3)
        tensor([[0.4963, 0.7682, 0.0885],
                [0.1320, 0.3074, 0.6341]])
    """
    fill_uniform(out, 0.0, 1.0, None)


@op(f"rand.generator(SymInt[] size, *, Generator? generator, {TENSOR_OPTIONS}) -> Tensor",
    meta=lambda size, generator, *options, out=None: _rand_meta(size, *options, out=out),
    out=True, out_overload="generator_out")
def rand_generator(size, generator, dtype, layout, device, pin_memory, *, out):
    """`rand` drawing from `generator`."""
    fill_uniform(out, 0.0, 1.0, generator)


def randn_meta(size, dtype=None, layout=None, device=None, pin_memory=None, out=None):
    dtype = _factory_dtype(dtype, layout, pin_memory, out)
    size = check_sizes(size)
    real = dtype.to_real() if dtype.is_complex else dtype
    if real not in FLOATING:
        raise not_implemented("normal_kernel_cpu", real)
    return TensorMeta(size, dtype)


@op(f"randn(SymInt[] size, *, {TENSOR_OPTIONS}) -> Tensor", meta=randn_meta, out=True)
def randn(size, dtype, layout, device, pin_memory, *, out):
    """A tensor of draws from the standard normal distribution N(0, 1).

    Tensors of 16 or more elements are filled by blocks of 16 (Box-Muller on 16
    uniforms), smaller ones one value at a time: torch's two paths, bit for bit.

    Example::

        >>> torch.manual_seed(0)
        >>> torch.randn(3)
        tensor([ 1.5410, -0.2934, -2.1788])
    """
    fill_normal(out, 0.0, 1.0, None)


@op(f"randn.generator(SymInt[] size, *, Generator? generator, {TENSOR_OPTIONS}) -> Tensor",
    meta=lambda size, generator, *options, out=None: randn_meta(size, *options, out=out),
    out=True, out_overload="generator_out")
def randn_generator(size, generator, dtype, layout, device, pin_memory, *, out):
    """`randn` drawing from `generator`."""
    fill_normal(out, 0.0, 1.0, generator)


# ----------------------------------------------------------------------------------
# randint
# ----------------------------------------------------------------------------------
# torch's schemas say ``dtype=long``; glasstorch declares None and defaults to int64 in
# the meta rule, so that an out= tensor of another dtype is filled (torch's out= overloads
# take no dtype) instead of refused as "dtype Long does not match dtype of out".
_INT_OPTIONS = TENSOR_OPTIONS


def _integer_dtype(dtype, layout, pin_memory, out):
    return _factory_dtype(dtype or dtypes.int64, layout, pin_memory, out)


def _randint_meta(low, high, size, dtype=None, layout=None, device=None, pin_memory=None,
                  out=None):
    dtype = _integer_dtype(dtype, layout, pin_memory, out)
    size = check_sizes(size)
    random_plan(dtype, low, high)
    return TensorMeta(size, dtype)


@op(f"randint(SymInt high, SymInt[] size, *, {_INT_OPTIONS}) -> Tensor", out=True,
    meta=lambda high, size, *options, out=None: _randint_meta(0, high, size, *options, out=out))
def randint(high, size, dtype, layout, device, pin_memory, *, out):
    """A tensor of integers drawn uniformly from [low, high) (low defaults to 0).

    Args:
        low: the lowest value (default: 0).
        high: one past the highest value.
        size: the sizes, as one sequence.
        generator: the source of randomness (default: `torch.default_generator`).
        dtype: the result dtype (default: `torch.int64`).

    Example::

        >>> torch.manual_seed(0)
        >>> torch.randint(3, 10, (4,))
        tensor([7, 6, 3, 5])
    """
    fill_random(out, 0, high, None)


@op(f"randint.generator(SymInt high, SymInt[] size, *, Generator? generator, {_INT_OPTIONS}) "
    "-> Tensor", out=True, out_overload="generator_out",
    meta=lambda high, size, generator, *options, out=None:
    _randint_meta(0, high, size, *options, out=out))
def randint_generator(high, size, generator, dtype, layout, device, pin_memory, *, out):
    """`randint` drawing from `generator`."""
    fill_random(out, 0, high, generator)


@op(f"randint.low(SymInt low, SymInt high, SymInt[] size, *, {_INT_OPTIONS}) -> Tensor",
    meta=_randint_meta, out=True, out_overload="low_out")
def randint_low(low, high, size, dtype, layout, device, pin_memory, *, out):
    """Integers drawn uniformly from [low, high); see `randint`."""
    fill_random(out, low, high, None)


@op(f"randint.low_generator(SymInt low, SymInt high, SymInt[] size, *, Generator? generator, "
    f"{_INT_OPTIONS}) -> Tensor", out=True, out_overload="low_generator_out",
    meta=lambda low, high, size, generator, *options, out=None:
    _randint_meta(low, high, size, *options, out=out))
def randint_low_generator(low, high, size, generator, dtype, layout, device, pin_memory, *, out):
    """`randint.low` drawing from `generator`."""
    fill_random(out, low, high, generator)


# ----------------------------------------------------------------------------------
# randperm
# ----------------------------------------------------------------------------------
_PRECISION_LIMITS = {dtypes.float16: ("2049", 2049), dtypes.float32: ("2^24+1", 2 ** 24 + 1),
                     dtypes.float64: ("2^53+1", 2 ** 53 + 1)}
_PRECISION_NAMES = {dtypes.float16: "Half", dtypes.float32: "Float", dtypes.float64: "Double"}


def _randperm_meta(n, dtype=None, layout=None, device=None, pin_memory=None, out=None):
    dtype = _integer_dtype(dtype, layout, pin_memory, out)
    check_sizes((n,))
    if dtype is dtypes.bool or dtype.is_complex or dtype in (dtypes.uint16, dtypes.uint32,
                                                             dtypes.uint64):
        raise not_implemented("randperm", dtype)
    checked_scalar(n - 1 if n > 0 else n, dtype)
    if dtype in _PRECISION_LIMITS and n > _PRECISION_LIMITS[dtype][1]:
        raise RuntimeError(f"n cannot be greater than {_PRECISION_LIMITS[dtype][0]} for "
                           f"{_PRECISION_NAMES[dtype]} type.")
    return TensorMeta((n,), dtype)


# Below this n, torch shuffles with 32-bit draws; above, with 64-bit ones (another algorithm).
_SMALL_PERMUTATION = (2 ** 32 - 1) // 20


def permutation(generator, n: int) -> np.ndarray:
    """torch's random permutation of range(n), as int64.

    For n < 2**32 / 20: Fisher-Yates from the front, element i swapped with i + z,
    z = word % (n - i), one 32-bit word per step (n - 1 words). Larger n: the
    "inside-out" shuffle with 64-bit draws, z = draw % (i + 1).

    Note [Fisher-Yates without a loop]
        Step k swaps positions k and t_k = k + z_k; later steps never touch positions
        below their own, so position k holds its final value after step k: the value
        position t_k held just before step k. That value is the one the last earlier
        step writing t_k moved there (or t_k itself if no step wrote it), and a step
        j writing position t moves there what position j held before step j, which
        is found the same way. So each result is found by following "last earlier
        writer" links back to a position no step wrote before: sort the steps by the
        position they write, link each to the previous writer of that position, and
        resolve the chains by pointer jumping (log of their length NumPy passes).
    """
    if n < _SMALL_PERMUTATION:
        offsets = (generator.random(max(n - 1, 0)) % np.arange(n, 1, -1, dtype=np.uint64))
        return _swap_forward(offsets.astype(np.int64), n)
    picks = (generator.random64(n) % np.arange(1, n + 1, dtype=np.uint64)).astype(np.int64)
    values = np.arange(n, dtype=np.int64)
    for i, z in enumerate(picks.tolist()):     # n >= 2**28: unreachable in tests
        values[i] = values[z]
        values[z] = i
    return values


def _swap_forward(offsets: np.ndarray, n: int) -> np.ndarray:
    """range(n) after swap(k, k + offsets[k]) for k = 0 .. n-2, in that order, without
    a loop over the steps (see Note [Fisher-Yates without a loop])."""
    steps = np.arange(n - 1, dtype=np.int64)
    moving = offsets > 0
    writers = steps[moving]
    keys = np.sort((writers + offsets[moving]) * n + writers)   # by position, then step
    written, writers = np.divmod(keys, n)
    first = np.ones(len(keys), bool)
    first[1:] = written[1:] != written[:-1]
    last = np.ones(len(keys), bool)
    last[:-1] = first[1:]
    source = np.arange(n, dtype=np.int64)
    source[written[last]] = writers[last]
    while True:                      # pointer jumping: each pass doubles the chains followed
        deeper = source[source]
        if np.array_equal(deeper, source):
            break
        source = deeper
    result = source.copy()
    earlier = np.empty(len(keys), np.int64)
    earlier[1:] = writers[:-1]
    earlier[first] = -1
    result[writers] = np.where(earlier >= 0, source[earlier], written)
    return result


@op(f"randperm(SymInt n, *, {_INT_OPTIONS}) -> Tensor", meta=_randperm_meta, out=True)
def randperm(n, dtype, layout, device, pin_memory, *, out):
    """A random permutation of the integers 0 .. n-1.

    Args:
        n: how many integers.
        generator: the source of randomness (default: `torch.default_generator`).
        dtype: the result dtype (default: `torch.int64`).

    Example::

        >>> torch.manual_seed(0)
        >>> torch.randperm(5)
        tensor([4, 0, 1, 3, 2])
    """
    out[...] = permutation(generator_or_default(None), n).astype(out.dtype)


@op(f"randperm.generator(SymInt n, *, Generator? generator, {_INT_OPTIONS}) -> Tensor",
    meta=lambda n, generator, *options, out=None: _randperm_meta(n, *options, out=out),
    out=True, out_overload="generator_out")
def randperm_generator(n, generator, dtype, layout, device, pin_memory, *, out):
    """`randperm` drawing from `generator`."""
    out[...] = permutation(generator_or_default(generator), n).astype(out.dtype)


# ----------------------------------------------------------------------------------
# rand_like, randn_like, randint_like
# ----------------------------------------------------------------------------------
_LIKE = f"{TENSOR_OPTIONS}, MemoryFormat? memory_format=None"


@composite(f"rand_like(Tensor self, *, {_LIKE}) -> Tensor")
def rand_like(self, dtype=None, layout=None, device=None, pin_memory=None, memory_format=None):
    """Uniform draws from [0, 1) shaped like `input` (its dtype and device unless given).

    Example::

        >>> torch.manual_seed(0)
        >>> torch.rand_like(torch.zeros(2, dtype=torch.float64))
        tensor([0.9701, 0.7078], dtype=torch.float64)
    """
    return rand_like_generator.call(self, None, dtype, layout, device, pin_memory,
                                    memory_format)


@composite(f"rand_like.generator(Tensor self, *, Generator? generator, {_LIKE}) -> Tensor")
def rand_like_generator(self, generator, dtype=None, layout=None, device=None, pin_memory=None,
                        memory_format=None):
    """`rand_like` drawing from `generator`."""
    result = empty_like.call(self, dtype, layout, device, pin_memory, memory_format)
    return uniform_.call(result, 0.0, 1.0, generator)


@composite(f"randn_like(Tensor self, *, {_LIKE}) -> Tensor")
def randn_like(self, dtype=None, layout=None, device=None, pin_memory=None, memory_format=None):
    """Standard normal draws shaped like `input` (its dtype and device unless given).

    Example::

        >>> torch.manual_seed(0)
        >>> torch.randn_like(torch.zeros(3))
        tensor([ 1.5410, -0.2934, -2.1788])
    """
    return randn_like_generator.call(self, None, dtype, layout, device, pin_memory,
                                     memory_format)


@composite(f"randn_like.generator(Tensor self, *, Generator? generator, {_LIKE}) -> Tensor")
def randn_like_generator(self, generator, dtype=None, layout=None, device=None,
                         pin_memory=None, memory_format=None):
    """`randn_like` drawing from `generator`."""
    result = empty_like.call(self, dtype, layout, device, pin_memory, memory_format)
    return normal_.call(result, 0.0, 1.0, generator)


# randint_like's overloads taking `high` as a tensor come first: torch's bindings try
# Tensor parameters before int ones (a 0-dim tensor would also pass as an int).
def _randint_like(self, low, high, generator, dtype, layout, device, pin_memory,
                  memory_format):
    result = empty_like.call(self, dtype, layout, device, pin_memory, memory_format)
    return random_from.call(result, low, high, generator)


def _high_of(high) -> int:
    """The bound's value, which torch reads on the host."""
    if high.numel() != 1 or high.dim() != 0 or not device_type(high._device).host:
        raise RuntimeError("high must be a scalar tensor and on CPU")
    return int(high.item())


@composite(f"randint_like.Tensor(Tensor self, Tensor high, *, {_LIKE}) -> Tensor")
def randint_like_tensor(self, high, dtype=None, layout=None, device=None, pin_memory=None,
                        memory_format=None):
    """`randint_like` with `high` given as a 0-dim tensor."""
    return _randint_like(self, 0, _high_of(high), None, dtype, layout, device, pin_memory,
                         memory_format)


@composite(f"randint_like.Tensor_generator(Tensor self, Tensor high, *, Generator? generator, "
           f"{_LIKE}) -> Tensor")
def randint_like_tensor_generator(self, high, generator, dtype=None, layout=None, device=None,
                                  pin_memory=None, memory_format=None):
    """`randint_like.Tensor` drawing from `generator`."""
    return _randint_like(self, 0, _high_of(high), generator, dtype, layout, device, pin_memory,
                         memory_format)


@composite(f"randint_like(Tensor self, SymInt high, *, {_LIKE}) -> Tensor")
def randint_like(self, high, dtype=None, layout=None, device=None, pin_memory=None,
                 memory_format=None):
    """Integers from [low, high) (low defaults to 0) shaped like `input`, of its dtype
    unless given.

    Example::

        >>> torch.manual_seed(0)
        >>> torch.randint_like(torch.zeros(4), 3, 10)
        tensor([7., 6., 3., 5.])
    """
    return _randint_like(self, 0, high, None, dtype, layout, device, pin_memory, memory_format)


@composite(f"randint_like.generator(Tensor self, SymInt high, *, Generator? generator, {_LIKE}) "
           "-> Tensor")
def randint_like_generator(self, high, generator, dtype=None, layout=None, device=None,
                           pin_memory=None, memory_format=None):
    """`randint_like` drawing from `generator`."""
    return _randint_like(self, 0, high, generator, dtype, layout, device, pin_memory,
                         memory_format)


@composite(f"randint_like.low_dtype(Tensor self, SymInt low, SymInt high, *, {_LIKE}) -> Tensor")
def randint_like_low(self, low, high, dtype=None, layout=None, device=None, pin_memory=None,
                     memory_format=None):
    """`randint_like` with an explicit `low`."""
    return _randint_like(self, low, high, None, dtype, layout, device, pin_memory, memory_format)


@composite(f"randint_like.low_generator_dtype(Tensor self, SymInt low, SymInt high, *, "
           f"Generator? generator, {_LIKE}) -> Tensor")
def randint_like_low_generator(self, low, high, generator, dtype=None, layout=None, device=None,
                               pin_memory=None, memory_format=None):
    """`randint_like.low_dtype` drawing from `generator`."""
    return _randint_like(self, low, high, generator, dtype, layout, device, pin_memory,
                         memory_format)
