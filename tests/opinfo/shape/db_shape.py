"""OpInfo entries for the shape composites of `aten/native/shape/shape.py`.

References are NumPy's own reshapes, transposes and slices. These operators are
composites: their results are views exactly when the view operators they call make
views (`reshape` of a transposed tensor copies), so none is flagged `is_view`;
tests/test_views.py checks `_base`, versions and writes through them against torch.

Operators returning several tensors (`chunk`, `tensor_split`, `hsplit` / `vsplit` /
`dsplit`, `split.sizes`) give a list of NumPy arrays as their reference.
"""
import numpy as np

import glasstorch as gt

import pytest

from ..core import (BOOL, COMPLEX, FLOATING, INTEGRAL, ErrorInput, OpInfo, SampleInput,
                   make_tensor, tensors)

REAL_DTYPES = BOOL + INTEGRAL + FLOATING     # H / mH / adjoint: complex needs conj


def _x(*shape):
    return make_tensor(shape, gt.float32)


def _dim_error(dim: int, ndim: int) -> str:
    low, high = (-ndim, ndim - 1) if ndim else (-1, 0)
    return (rf"^Dimension out of range \(expected to be in range of \[{low}, {high}\], "
            rf"but got {dim}\)$")


# ----- reshape, reshape_as, view_as, flatten, unflatten, ravel --------------------
def sample_reshape(dtype):
    for x in tensors(dtype):
        yield SampleInput(x, (-1,))
        yield SampleInput(x, (1,) + tuple(x.shape))
        if x.numel() and x.dim():
            yield SampleInput(x, (x.shape[-1], -1))


def errors_reshape():
    yield ErrorInput(SampleInput(_x(3, 4), (5, -1)), RuntimeError,
                     r"^shape '\[5, -1\]' is invalid for input of size 12$")
    yield ErrorInput(SampleInput(_x(3, 4), (-1, -1)), RuntimeError,
                     r"^only one dimension can be inferred$")


def sample_like(dtype):
    for x in tensors(dtype):
        yield SampleInput(x, make_tensor((1,) + tuple(x.shape), gt.float32))


def sample_view_as(dtype):
    for x in tensors(dtype):
        if x.is_contiguous():
            yield SampleInput(x, make_tensor((x.numel(),), gt.float32))


def sample_flatten(dtype):
    for x in tensors(dtype):
        yield SampleInput(x)
        if x.dim() >= 2:
            yield SampleInput(x, 1)
            yield SampleInput(x, 0, -2)


def _flatten(a, start_dim=0, end_dim=-1):
    if a.ndim == 0:
        return a.reshape(1)
    start, end = start_dim % a.ndim, end_dim % a.ndim
    merged = int(np.prod(a.shape[start:end + 1]))
    return a.reshape(a.shape[:start] + (merged,) + a.shape[end + 1:])


def errors_flatten():
    yield ErrorInput(SampleInput(_x(2, 3, 4), 2, 1), RuntimeError,
                     r"^flatten\(\) has invalid args: start_dim cannot come after end_dim$")
    yield ErrorInput(SampleInput(_x(2, 3), 0, 2), IndexError, _dim_error(2, 2))


def sample_unflatten(dtype):
    for x in tensors(dtype):
        if x.dim():
            yield SampleInput(x, -1, (1, x.shape[-1]))
            yield SampleInput(x, 0, (x.shape[0], 1))


def _unflatten(a, dim, sizes):
    dim = dim % a.ndim
    return a.reshape(a.shape[:dim] + tuple(sizes) + a.shape[dim + 1:])


def errors_unflatten():
    yield ErrorInput(SampleInput(_x(2, 3), 1, (2, 2)), RuntimeError,
                     r"^unflatten: Provided sizes \[2, 2\] don't multiply up to the size of dim "
                     r"1 \(3\) in the input tensor$")
    yield ErrorInput(SampleInput(_x(2, 3), 1, ()), RuntimeError,
                     r"^unflatten: sizes must be non-empty$")


# ----- swapaxes, swapdims, movedim, moveaxis ----------------------------------------
def sample_swap(dtype):
    for x in tensors(dtype):
        yield SampleInput(x, 0, -1)


def _swap(a, d0, d1):
    return np.swapaxes(a, d0, d1) if a.ndim else a


def sample_movedim_int(dtype):
    for x in tensors(dtype):
        yield SampleInput(x, 0, -1)
        yield SampleInput(x, -1, 0)


def sample_movedim_intlist(dtype):
    for x in tensors(dtype):
        if x.dim() >= 2:
            yield SampleInput(x, (0, 1), (-1, 0))
        yield SampleInput(x, (0,), (-1,))


def _movedim(a, source, destination):
    return np.moveaxis(a, source, destination) if a.ndim else a


def errors_movedim_intlist():
    x = _x(2, 3, 4)
    yield ErrorInput(SampleInput(x, (0, 0), (1, 2)), RuntimeError,
                     r"^movedim: repeated dim in `source` \(\[0, 0\]\)$")
    yield ErrorInput(SampleInput(x, (0, 1), (1, -2)), RuntimeError,
                     r"^movedim: repeated dim in `destination` \(\[1, -2\]\)$")
    yield ErrorInput(SampleInput(x, (0,), (1, 2)), RuntimeError,
                     r"^movedim: Invalid source or destination dims: source \(\[0\] dims\) "
                     r"should contain the same number of dims as destination \(\[1, 2\] "
                     r"dims\)$")


# ----- T, mT, H, mH, adjoint --------------------------------------------------------
def sample_matrix(dtype):
    for x in tensors(dtype):
        if x.dim() == 2:
            yield SampleInput(x)


def sample_batch(dtype):
    for x in tensors(dtype):
        if x.dim() >= 2:
            yield SampleInput(x)


def _batch_errors(name: str):
    def errors():
        yield ErrorInput(SampleInput(_x(3)), RuntimeError,
                         rf"^tensor\.{name} is only supported on matrices or batches of "
                         rf"matrices\. Got 1-D tensor\.$")
    return errors


def errors_matrix_H():
    yield ErrorInput(SampleInput(_x(2, 3, 4)), RuntimeError,
                     r"^tensor\.H is only supported on matrices \(2-D tensors\)\. Got 3-D "
                     r"tensor\. For batches of matrices, consider using tensor\.mH$")


# ----- expand_as, broadcast_to, narrow, real, imag ----------------------------------
def sample_broadcast_to(dtype):
    for x in tensors(dtype):
        yield SampleInput(x, (2,) + tuple(x.shape))


def errors_broadcast_to():
    yield ErrorInput(SampleInput(_x(3, 4), (3, 5)), RuntimeError,
                     r"^The expanded size of the tensor \(5\) must match the existing size "
                     r"\(4\) at non-singleton dimension 1\.  Target sizes: \[3, 5\]\.  Tensor "
                     r"sizes: \[3, 4\]$")


def sample_expand_as(dtype):
    for x in tensors(dtype):
        yield SampleInput(x, make_tensor((2,) + tuple(x.shape), gt.float32))


def sample_narrow(dtype):
    for x in tensors(dtype):
        if x.dim() and x.shape[0]:
            yield SampleInput(x, 0, 0, 1)
            yield SampleInput(x, -1, -1, 1) if x.shape[-1] else SampleInput(x, -1, 0, 0)


def _narrow(a, dim, start, length):
    dim = dim % a.ndim
    start = start + a.shape[dim] if start < 0 else start
    return a[(slice(None),) * dim + (slice(start, start + length),)]


def errors_narrow():
    x = _x(3, 4)
    yield ErrorInput(SampleInput(x, 0, 2, 2), RuntimeError,
                     r"^start \(2\) \+ length \(2\) exceeds dimension size \(3\)\.$")
    yield ErrorInput(SampleInput(x, 0, -4, 1), IndexError,
                     r"^start out of range \(expected to be in range of \[-3, 3\], but got "
                     r"-4\)$")
    yield ErrorInput(SampleInput(x, 0, 0, -1), RuntimeError,
                     r"^narrow\(\): length must be non-negative\.$")
    yield ErrorInput(SampleInput(_x(), 0, 0, 1), RuntimeError,
                     r"^narrow\(\) cannot be applied to a 0-dim tensor\.$")


def sample_narrow_tensor(dtype):
    for x in tensors(dtype):
        if x.dim() and x.shape[0]:
            yield SampleInput(x, 0, gt.tensor([0])[0], 1)


def _narrow_tensor(a, dim, start, length):
    return _narrow(a, dim, int(start), length)


def errors_narrow_tensor():
    yield ErrorInput(SampleInput(_x(3, 4), 0, gt.tensor([1.0])[0], 1), RuntimeError,
                     r"^start must be an 0-dim integral Tensor\.$")


def sample_plain(dtype):
    for x in tensors(dtype):
        yield SampleInput(x)


def errors_imag():
    yield ErrorInput(SampleInput(_x(3)), RuntimeError,
                     r"^imag is not implemented for tensors with non-complex dtypes\.$")


# ----- chunk, tensor_split, hsplit / vsplit / dsplit, split.sizes (several results) ---
def sample_chunk(dtype):
    for x in tensors(dtype):
        if x.dim():
            yield SampleInput(x, 3, -1)
            yield SampleInput(x, 1, 0)


def _chunk(a, chunks, dim=0):
    length = a.shape[dim]
    size = -(-length // chunks)
    if size == 0:
        return [a] * chunks
    return np.split(a, list(range(size, length, size)), axis=dim)


def errors_chunk():
    yield ErrorInput(SampleInput(_x(3), 0), RuntimeError,
                     r"^chunk expects `chunks` to be greater than 0, got: 0$")
    yield ErrorInput(SampleInput(_x(), 1), RuntimeError,
                     r"^chunk expects at least a 1-dimensional tensor$")


def sample_tensor_split(dtype):
    for x in tensors(dtype):
        if x.dim():
            yield SampleInput(x, 3, -1)


def sample_tensor_split_indices(dtype):
    for x in tensors(dtype):
        if x.dim():
            yield SampleInput(x, (1, -1, 10), -1)
            yield SampleInput(x, (), 0)


def sample_tensor_split_tensor(dtype):
    for x in tensors(dtype):
        if x.dim():
            yield SampleInput(x, gt.tensor([1, 2]), -1)
            yield SampleInput(x, gt.tensor(2), 0)


def _tensor_split(a, where, dim=0):
    where = where.tolist() if isinstance(where, np.ndarray) else where
    return np.array_split(a, list(where) if isinstance(where, tuple) else where, axis=dim)


def errors_tensor_split():
    yield ErrorInput(SampleInput(_x(3), 0), RuntimeError,
                     r"^number of sections must be larger than 0, got 0$")
    yield ErrorInput(SampleInput(_x(), 1), RuntimeError,
                     r"^tensor_split expected at least a 1-dimensional tensor, but got a tensor "
                     r"with 0 dims$")


def errors_tensor_split_tensor():
    yield ErrorInput(SampleInput(_x(3), gt.tensor([1.0])), RuntimeError,
                     r"^tensor_split expected tensor_indices_or_sections to have dtype of long, "
                     r"but got Float$")


def _directional(name: str, dim_of, min_dims: int):
    def sample_int(dtype):
        for x in tensors(dtype):
            if x.dim() >= min_dims and x.shape[dim_of(x.dim())] % 2 == 0:
                yield SampleInput(x, 2)

    def sample_array(dtype):
        for x in tensors(dtype):
            if x.dim() >= min_dims:
                yield SampleInput(x, (1, 2))

    def ref(a, where):
        return _tensor_split(a, where, dim_of(a.ndim))

    def errors():
        yield ErrorInput(SampleInput(make_tensor((3, 3, 3), gt.float32), 2), RuntimeError,
                         rf"^torch\.{name} attempted to split along dimension "
                         rf"{dim_of(3)}, but the size of the dimension 3 is not divisible by "
                         rf"the split_size 2!$")
    return [OpInfo(f"{name}.int", variants=(name, f"Tensor.{name}"), sample_inputs=sample_int,
                   ref=ref, error_inputs=errors),
            OpInfo(f"{name}.array", variants=(name, f"Tensor.{name}"),
                   sample_inputs=sample_array, ref=ref)]


# ----- in-place views: t_, transpose_, unsqueeze_, squeeze_, as_strided_ -------------
def sample_t_(dtype):
    for x in tensors(dtype):
        if x.dim() <= 2:
            yield SampleInput(x)


def sample_unsqueeze_(dtype):
    for x in tensors(dtype):
        yield SampleInput(x, -1)


def sample_squeeze_dims_(dtype):
    for x in tensors(dtype):
        yield SampleInput(x, (0,) if x.dim() else ())


def sample_as_strided_(dtype):
    yield SampleInput(make_tensor((3, 4), dtype), (2, 2), (1, 2), 1)
    yield SampleInput(make_tensor((3, 4), dtype), (12,), (1,))


def _squeeze_dims(a, dims):
    dims = (dims,) if isinstance(dims, int) else dims
    return np.squeeze(a, tuple(d % a.ndim for d in dims if a.ndim and a.shape[d] == 1))


def _as_strided(a, size, stride, storage_offset=0):
    flat = a.reshape(-1)[storage_offset:]
    return np.lib.stride_tricks.as_strided(flat, size, [s * a.itemsize for s in stride])


def _in_place(name, sample, ref, **flags):
    return OpInfo(name, variants=(f"Tensor.{name.split('.')[0]}",), sample_inputs=sample,
                  ref=ref, mutates_input=True, inplace_view=True, **flags)


def _split_sizes_samples(dtype):
    for x in tensors(dtype):
        if x.dim():
            yield SampleInput(x, [x.shape[0]], 0)


def _split_sizes(a, sizes, dim=0):
    return np.split(a, np.cumsum(sizes)[:-1].tolist(), axis=dim)


def _entry(name, variants, sample, ref, errors=lambda: (), **flags):
    return OpInfo(name, variants=variants, sample_inputs=sample, ref=ref,
                  error_inputs=errors, **flags)


OPS = [
    _entry("reshape", ("reshape", "Tensor.reshape"), sample_reshape,
          lambda a, shape: a.reshape(shape), errors_reshape,
          covers=("_reshape_alias", "_unsafe_view")),
    _entry("reshape_as", ("Tensor.reshape_as",), sample_like,
          lambda a, other: a.reshape(other.shape)),
    _entry("view_as", ("Tensor.view_as",), sample_view_as, lambda a, other: a.reshape(other.shape),
          layout_sensitive=True),
    _entry("flatten.using_ints", ("flatten", "Tensor.flatten"), sample_flatten, _flatten,
          errors_flatten),
    _entry("unflatten.int", ("unflatten", "Tensor.unflatten"), sample_unflatten, _unflatten,
          errors_unflatten),
    _entry("ravel", ("ravel", "Tensor.ravel"), sample_plain, lambda a: a.reshape(-1)),
    _entry("swapaxes", ("swapaxes", "Tensor.swapaxes"), sample_swap, _swap),
    _entry("swapdims", ("swapdims", "Tensor.swapdims"), sample_swap, _swap),
    _entry("movedim.int", ("movedim", "Tensor.movedim"), sample_movedim_int, _movedim),
    _entry("movedim.intlist", ("movedim", "Tensor.movedim"), sample_movedim_intlist, _movedim,
          errors_movedim_intlist),
    _entry("moveaxis.int", ("moveaxis", "Tensor.moveaxis"), sample_movedim_int, _movedim),
    _entry("moveaxis.intlist", ("moveaxis", "Tensor.moveaxis"), sample_movedim_intlist,
          _movedim, errors_movedim_intlist),
    _entry("numpy_T", ("ops.aten.numpy_T.default",), sample_matrix, lambda a: a.T),
    _entry("mT", ("ops.aten.mT.default",), sample_batch, lambda a: np.swapaxes(a, -1, -2),
          _batch_errors("mT")),
    _entry("matrix_H", ("ops.aten.matrix_H.default",), sample_matrix, lambda a: a.T,
          errors_matrix_H, dtypes=REAL_DTYPES),
    _entry("mH", ("ops.aten.mH.default",), sample_batch, lambda a: np.swapaxes(a, -1, -2),
          _batch_errors("mH"), dtypes=REAL_DTYPES),
    _entry("adjoint", ("adjoint", "Tensor.adjoint"), sample_batch,
          lambda a: np.swapaxes(a, -1, -2), _batch_errors(r"adjoint\(\)"), dtypes=REAL_DTYPES),
    _entry("expand_as", ("Tensor.expand_as",), sample_expand_as,
          lambda a, other: np.broadcast_to(a, other.shape)),
    _entry("broadcast_to", ("broadcast_to", "Tensor.broadcast_to"), sample_broadcast_to,
          np.broadcast_to, errors_broadcast_to),
    _entry("narrow", ("narrow", "Tensor.narrow"), sample_narrow, _narrow, errors_narrow),
    _entry("narrow.Tensor", ("narrow", "Tensor.narrow"), sample_narrow_tensor, _narrow_tensor,
          errors_narrow_tensor,
          marks={"test_meta": pytest.mark.xfail(strict=True, reason="start is read with "
                                                "item(): a meta start has no value")}),
    _entry("real", ("real",), sample_plain, np.real, dtypes=COMPLEX),
    _entry("imag", ("imag",), sample_plain, np.imag, errors_imag, dtypes=COMPLEX),
    _entry("split.sizes", ("Tensor.split",), _split_sizes_samples, _split_sizes),
    _entry("chunk", ("chunk", "Tensor.chunk"), sample_chunk, _chunk, errors_chunk),
    _entry("tensor_split.sections", ("tensor_split", "Tensor.tensor_split"),
           sample_tensor_split, _tensor_split, errors_tensor_split),
    _entry("tensor_split.indices", ("tensor_split", "Tensor.tensor_split"),
           sample_tensor_split_indices, _tensor_split),
    _entry("tensor_split.tensor_indices_or_sections", ("tensor_split", "Tensor.tensor_split"),
           sample_tensor_split_tensor, _tensor_split, errors_tensor_split_tensor,
           marks={"test_meta": pytest.mark.xfail(strict=True, reason="the indices are read "
                                                 "on the CPU: torch refuses meta ones too")}),
    *_directional("hsplit", lambda ndim: 0 if ndim == 1 else 1, 1),
    *_directional("vsplit", lambda ndim: 0, 2),
    *_directional("dsplit", lambda ndim: 2, 3),
    _in_place("t_", sample_t_, lambda a: a.T),
    _in_place("transpose_", sample_swap, _swap),
    _in_place("swapaxes_", sample_swap, _swap),
    _in_place("swapdims_", sample_swap, _swap),
    _in_place("unsqueeze_", sample_unsqueeze_, np.expand_dims),
    _in_place("squeeze_", sample_plain, np.squeeze),
    _in_place("squeeze_.dim", sample_unsqueeze_, _squeeze_dims),
    _in_place("squeeze_.dims", sample_squeeze_dims_, _squeeze_dims),
    _in_place("as_strided_", sample_as_strided_, _as_strided, layout_sensitive=True),
]
