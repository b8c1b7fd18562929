"""Small pure functions over shapes, strides and dimensions, shared by every meta rule."""
from __future__ import annotations

import functools

from ...c10.device import device_type
from ...c10.tensor_impl import contiguous_strides  # noqa: F401  (re-exported for rules)
from ...c10.strides import is_contiguous_strides
from ...c10.tensor_impl import share_storage


def wrap_dim(dim: int, ndim: int, scalar_ok: bool = True) -> int:
    """Turn a possibly negative `dim` into an index in ``[0, ndim)``.

    A 0-dim tensor accepts dims -1 and 0 (torch treats it as having one dim here).

    Raises:
        IndexError: torch's "Dimension out of range" message.
    """
    if ndim <= 0:
        if not scalar_ok:
            raise IndexError(f"dimension specified as {dim} but tensor has no dimensions")
        ndim = 1
    if dim < -ndim or dim >= ndim:
        raise IndexError(f"Dimension out of range (expected to be in range of "
                         f"[{-ndim}, {ndim - 1}], but got {dim})")
    return dim + ndim if dim < 0 else dim


def wrap_dims(dims, ndim: int) -> tuple:
    """Wrap a list of dims, refusing repeats (torch's ``dim_list_to_bitset``).

    Dims are wrapped and checked one at a time, so the first bad entry decides the
    error, as in torch: an out-of-range dim raises IndexError, a repeat RuntimeError.
    """
    wrapped = []
    for d in dims:
        d = wrap_dim(d, ndim)
        if d in wrapped:
            raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
        wrapped.append(d)
    return tuple(wrapped)


def infer_size(shape, numel: int, op: str = "view") -> tuple:
    """Resolve one ``-1`` in `shape` so that it holds `numel` elements.

    Raises:
        RuntimeError: torch's "shape '[...]' is invalid for input of size N" and
            "only one dimension can be inferred".
    """
    shape = tuple(shape)
    if -1 not in shape:
        known = 1
        for i, s in enumerate(shape):
            if s < 0:
                raise RuntimeError(f"invalid shape dimension {s} at index {i} of shape "
                                   f"{list(shape)}")
            known *= s
        if known != numel:
            raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
        return shape
    infer_at = None
    known = 1
    for i, s in enumerate(shape):
        if s == -1:
            if infer_at is not None:
                raise RuntimeError("only one dimension can be inferred")
            infer_at = i
        elif s < 0:
            raise RuntimeError(f"invalid shape dimension {s} at index {i} of shape "
                               f"{list(shape)}")
        else:
            known *= s
    if infer_at is None:
        if known != numel:
            raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
        return shape
    if known == 0:
        if numel == 0:
            raise RuntimeError(f"cannot reshape tensor of 0 elements into shape {list(shape)} "
                               "because the unspecified dimension size -1 can be any value and "
                               "is ambiguous")
        raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
    if numel % known:
        raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
    return shape[:infer_at] + (numel // known,) + shape[infer_at + 1:]


def broadcast_shapes(*shapes) -> tuple:
    """The shape that all `shapes` broadcast to (right-aligned; 1 stretches).

    Raises:
        RuntimeError: torch's message naming the first mismatching dimension.
    """
    ndim = max((len(s) for s in shapes), default=0)
    result = [1] * ndim
    for shape in shapes:
        offset = ndim - len(shape)
        for i in range(len(shape) - 1, -1, -1):       # torch checks from the last dim
            s = shape[i]
            current = result[offset + i]
            if s == current or s == 1:
                continue
            if current == 1:
                result[offset + i] = s
            else:
                raise RuntimeError(
                    f"The size of tensor a ({current}) must match the size of tensor b ({s}) "
                    f"at non-singleton dimension {offset + i}")
    return tuple(result)


def compute_view_stride(old_size: tuple, old_stride: tuple, new_size: tuple):
    """Strides that view (old_size, old_stride) as `new_size` without copying, or None.

    A view is possible when each group of new dims that spans a group of old dims
    maps onto old dims that are laid out contiguously with respect to one another
    (torch's `computeStride`).
    """
    if not old_size:
        return (1,) * len(new_size)
    if old_stride == contiguous_strides(old_size):
        return contiguous_strides(new_size)
    numel = 1
    for s in old_size:
        numel *= s
    if numel == 0:
        if old_size == new_size:
            return old_stride
        return contiguous_strides(new_size)
    new_stride = [0] * len(new_size)
    view_d = len(new_size) - 1
    chunk_base_stride = old_stride[-1]
    tensor_numel = 1
    view_numel = 1
    for tensor_d in range(len(old_size) - 1, -1, -1):
        tensor_numel *= old_size[tensor_d]
        if tensor_d == 0 or (old_size[tensor_d - 1] != 1 and
                             old_stride[tensor_d - 1] != tensor_numel * chunk_base_stride):
            while view_d >= 0 and (view_numel < tensor_numel or new_size[view_d] == 1):
                new_stride[view_d] = view_numel * chunk_base_stride
                view_numel *= new_size[view_d]
                view_d -= 1
            if view_numel != tensor_numel:
                return None
            if tensor_d > 0:
                chunk_base_stride = old_stride[tensor_d - 1]
                tensor_numel = 1
                view_numel = 1
    if view_d != -1:
        return None
    return tuple(new_stride)


@functools.lru_cache(maxsize=1024)
def reshape_plan(old_size: tuple, old_stride: tuple, shape: tuple) -> tuple:
    """How `reshape` gives a tensor of `old_size` and `old_stride` the shape `shape`,
    worked out once per geometry (a program reshapes the same few).

    Returns:
        tuple: the new sizes (-1 resolved), their strides over the same memory or None
        when no view can express them, and whether the tensor is contiguous.
    """
    numel = 1
    for s in old_size:
        numel *= s
    size = infer_size(shape, numel)
    return (size, compute_view_stride(old_size, old_stride, size),
            is_contiguous_strides(old_size, old_stride))


@functools.lru_cache(maxsize=1024)
def flattened_size(size: tuple, start_dim: int, end_dim: int):
    """The sizes `flatten(start_dim, end_dim)` gives a tensor of `size`, or None when
    the tensor is its own result (``start_dim == end_dim``); once per geometry.

    Raises:
        IndexError: a dim out of range. RuntimeError: `start_dim` after `end_dim`.
    """
    ndim = len(size)
    start, end = wrap_dim(start_dim, ndim), wrap_dim(end_dim, ndim)
    if start > end:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    if ndim == 0:
        return (1,)
    if start == end:
        return None
    merged = 1
    for s in size[start:end + 1]:
        merged *= s
    return size[:start] + (merged,) + size[end + 1:]


def dense_strides_in_order(shape: tuple, outer_first) -> tuple:
    """Dense strides for `shape`, its dims ordered by a comparison, as TensorIterator does.

    Args:
        shape: the sizes of the result.
        outer_first: the comparison of two dims (see `dims_in_order`).

    Returns:
        tuple: the strides.
    """
    strides = [0] * len(shape)
    step = 1
    for d in reversed(dims_in_order(len(shape), outer_first)):
        strides[d] = step
        step *= max(shape[d], 1)
    return tuple(strides)


def dims_in_order(ndim: int, outer_first) -> list:
    """The dims ordered outermost first by a comparison, as TensorIterator orders them.

    Dims start innermost-last-dim-first and are insertion-sorted with
    ``outer_first(d0, d1)``: positive when d0 belongs outside d1, negative when
    inside, 0 for "no opinion" (which leaves a dim where the row-major order put it).

    Args:
        ndim: the number of dims.
        outer_first: the comparison of two dims.

    Returns:
        list: the dims, outermost first (``Tensor.dim_order()``).
    """
    perm = list(range(ndim - 1, -1, -1))       # perm[0] is the innermost dim
    for i in range(1, len(perm)):
        moving = i
        for j in range(i - 1, -1, -1):
            order = outer_first(perm[j], perm[moving])
            if order > 0:
                perm[j], perm[moving] = perm[moving], perm[j]
                moving = j
            elif order < 0:
                break
    return perm[::-1]


def is_non_overlapping_and_dense(size: tuple, stride: tuple) -> bool:
    """The elements fill their span of memory exactly once, in some order of dims.

    Like torch, every empty tensor counts as dense (its strides are then kept).
    """
    if 0 in size:
        return True
    if len(size) == 1:
        return size[0] < 2 or stride[0] == 1
    order = sorted((d for d in range(len(size)) if size[d] >= 2), key=lambda d: stride[d])
    expected = 1
    for d in order:
        if stride[d] != expected:
            return False
        expected *= size[d]
    return True


def has_internal_overlap(size: tuple, stride: tuple) -> bool:
    """Some element is reached by more than one index: a stride-0 dim of size > 1."""
    return 0 not in size and any(n > 1 and s == 0 for n, s in zip(size, stride))


def check_no_internal_overlap(t) -> None:
    """Refuse to write a tensor whose elements share memory, as torch does (where there
    is memory: a meta tensor's storage holds none)."""
    if has_internal_overlap(t._size, t._stride) and holds_data(t):
        raise RuntimeError("unsupported operation: more than one element of the written-to "
                           "tensor refers to a single memory location. Please clone() the "
                           "tensor before performing the operation.")


def partially_overlap(a, b) -> bool:
    """`a` and `b` share some but not all of their memory, as far as torch can tell.

    Only two dense tensors over one storage are compared (by the byte ranges they
    span); for anything else torch's answer is "too hard to say", and it goes ahead.
    """
    if not share_storage(a, b) or a.numel() == 0 or b.numel() == 0:
        return False
    if not (is_non_overlapping_and_dense(a._size, a._stride)
            and is_non_overlapping_and_dense(b._size, b._stride)):
        return False
    a_span, b_span = _byte_span(a), _byte_span(b)
    if a_span == b_span:
        return a._stride != b._stride
    return a_span[0] < b_span[1] and b_span[0] < a_span[1]


def _byte_span(t) -> tuple:
    start = t._offset * t._dtype.itemsize
    return start, start + t.numel() * t._dtype.itemsize


def holds_data(t) -> bool:
    """Whether `t`'s storage holds its elements (not a meta tensor's): memory overlap,
    which torch's checks refuse, exists only there."""
    return device_type(t._device).holds_data


def check_no_partial_overlap(written, read) -> None:
    """Refuse to write `written` while reading a partly overlapping `read` (torch's check)."""
    if partially_overlap(written, read) and holds_data(written):
        raise RuntimeError("unsupported operation: some elements of the input tensor and the "
                           "written-to tensor refer to a single memory location. Please "
                           "clone() the tensor before performing the operation.")


def check_no_overlap(written, read) -> None:
    """Refuse to write `written` while reading `read` from any of the same memory, fully
    or partly, as far as torch can tell (its ``assert_no_overlap``, used by `cat`)."""
    if not holds_data(written):
        return
    if written is not read:
        if not share_storage(written, read) or not written.numel() or not read.numel():
            return
        if not (is_non_overlapping_and_dense(written._size, written._stride)
                and is_non_overlapping_and_dense(read._size, read._stride)):
            return
        (a_start, a_end), (b_start, b_end) = _byte_span(written), _byte_span(read)
        if not (a_start < b_end and b_start < a_end):
            return
    raise RuntimeError("unsupported operation: some elements of the input tensor and the "
                       "written-to tensor refer to a single memory location. Please "
                       "clone() the tensor before performing the operation.")
