"""torch's order of additions in a float32 / float64 sum, reproduced with NumPy.

Note [Cascade sum order]
    Rounding makes a float sum depend on the order of its additions. torch's CPU sum
    (and mean, its sum divided) neither adds left to right nor pairwise as NumPy does;
    its order is fixed by three things, each reproduced here with whole-array NumPy
    additions in the same order, so the bits agree:

    1. The layout (TensorIterator's): the dims are ordered reduced dims first, then by
       the output's and the input's strides, and neighbours contiguous in both are
       merged (`_layout`). The kernel sees 2-D blocks of the first two dims and is
       called once per index of the others, adding each call's sums into the output.
    2. The block kernel: the reduced dim runs down "rows". A *cascade* over a row keeps
       four accumulators: elements go into the first in chunks of W (16 unless the row
       is very long); each full chunk is added into the second, every W-th of those
       into the third, and every W-th of those into the fourth; the four are added at
       the end (`_cascade`). A plain row sum runs four interleaved cascades (elements
       i = 0, 1, 2, 3 mod 4; left-overs into the first) and adds the four
       (`_four_way`). When the reduced dim is contiguous, a row is read as vectors of
       `vector_lanes` elements (32 bytes: 8 float32, 4 float64, as torch 2.13's wheel
       sums on an AVX-512 CPU too): a four-way sum of vectors, then the scalar tail,
       then the lanes one by one (`_inner_rows`).
       When the kept dim is contiguous, columns are summed side by side: blocks of four
       vectors of columns as one cascade each, the rest four-way (`_block`).
    3. Threads (at least 32768 elements and more than one thread): a sum to one value
       gives each thread a stretch of the iteration order, cut into blocks at its ends
       (`_stretches`), and adds the threads' sums in order; a sum over a dim gives each
       thread a range of an outer kept dim, which only changes how columns group into
       vectors (ranges start at 128-byte multiples).

    NumPy adds one slice per call of its inner loop: where the kernel sums long runs
    of contiguous columns side by side the order costs little at any size; along
    contiguous memory (8-lane vectors) it costs about four times NumPy's own sum, so
    there it is kept up to `EXACT_SIZE` elements and larger sums add NumPy's way (a
    sum to one value a stretch per thread: `sum.py`'s `sum_over_stretches`). A
    layout this module does not model (a negative stride; a thread's stretch over more
    than `_BLOCKS` outer indices) also returns False and the caller sums NumPy's way.
    Intermediate zeros may carry another sign than torch's; the final ``+ 0.0`` is
    torch's own (its output starts at zero) and makes every zero positive as torch's
    are.

    Every decision above depends on the geometry alone, so `_plan` takes them once per
    geometry and a repeated sum runs only its NumPy calls; the common short cases
    (`cascade_short.py`) are a few reductions each.
"""
from __future__ import annotations

import functools
import math

import numpy as np
from numpy.lib.stride_tricks import as_strided

from ...meta.reduction import reduced_shape, reduction_count, reduction_dims
from ...meta.shape import dims_in_order
from ...parallel import GRAIN_SIZE, get_num_threads, in_parallel_region, parallel_for
from .cascade_short import SHORT, columns_plan, rows_plan, whole_plan

_ORDERED = (np.dtype(np.float32), np.dtype(np.float64))
_VECTOR_BYTES = 32      # torch 2.13's sum kernel's vectors, measured on an AVX-512 CPU too
_LOOP = 64              # a left-to-right sum this long or shorter adds slice by slice
EXACT_SIZE = 65536      # larger sums along contiguous memory add NumPy's way (see the Note)
_WIDE_BYTES = 2048      # runs of columns this long add at NumPy's pace in torch's order
_BLOCKS = 64            # outer indices a thread's stretch may cover (one NumPy pass each)
POOL_SIZE = 1 << 20     # a sum over this many elements (~150 us) pays a pool thread's wake-up


def ordered_sum(x: np.ndarray, dim, out: np.ndarray, skip_nan: bool = False) -> bool:
    """Write into `out` the sum of `x` over `dim` (a reduction's dim argument: None,
    an int or a sequence of them) added in torch's order (see the Note); `out` is the
    result, with or without the reduced dims; `skip_nan`: NaN counts as zero (nansum).
    False, writing nothing, when this order is not modelled here: the caller then sums."""
    if out.dtype not in _ORDERED or x.size == 0:
        return False
    if x.dtype != out.dtype:
        x = x.astype(out.dtype)
    if skip_nan and x.flags.c_contiguous:      # the copy keeps the layout
        x, skip_nan = zero_nan(x), False
    if dim.__class__ is list:
        dim = tuple(dim)
    threads = 1 if x.size < GRAIN_SIZE else _threads()
    run = _plan(x.shape, x.strides, x.dtype, dim, out.shape, out.strides, threads, skip_nan)
    if run.__class__ is np.ndarray:       # under two vectors: the order of its additions
        out[()] = np.add.accumulate(x.reshape(-1)[run])[-1] + 0.0
        return True
    return run(x, out)


def new_sum(x: np.ndarray, dim, keepdim: bool):
    """``(result, elements each result sums, done)``: the sum of `x` over `dim` into a
    new row-major array, added in torch's order when `done` (else nothing is written
    and the caller sums); None where the dims are refused (out of range, repeated)."""
    if dim.__class__ is list:
        dim = tuple(dim)
    threads = 1 if x.size < GRAIN_SIZE else _threads()
    planned = _new_plan(x.shape, x.strides, x.dtype, dim, keepdim, threads)
    if planned is None:
        return None
    shape, count, run = planned
    out = np.empty(shape, x.dtype)
    if run.__class__ is np.ndarray:       # under two vectors: the order of its additions
        out[()] = np.add.accumulate((x if x.ndim == 1 else x.reshape(-1))[run])[-1] + 0.0
        return out, count, True
    return out, count, run(x, out)


@functools.lru_cache(maxsize=1024)
def _new_plan(shape: tuple, strides: tuple, dtype: np.dtype, dim, keepdim: bool,
              threads: int):
    """``(result shape, elements each result sums, run)`` of `new_sum` (`run` as
    `_plan`'s, for the new row-major result); None where the dims are refused."""
    try:
        axes = reduction_dims(dim, len(shape))
    except (IndexError, RuntimeError):
        return None
    out_shape = reduced_shape(shape, axes, keepdim)
    if dtype not in _ORDERED or 0 in shape:
        return out_shape, reduction_count(shape, axes), _refuse
    out_strides = np.empty(out_shape, dtype).strides
    return out_shape, reduction_count(shape, axes), _plan(
        shape, strides, dtype, dim, out_shape, out_strides, threads, False)


# ----------------------------------------------------------------------------------
# The plan: what a geometry's sum runs, worked out once per geometry
# ----------------------------------------------------------------------------------
@functools.lru_cache(maxsize=1024)
def _plan(shape: tuple, strides: tuple, dtype: np.dtype, dim, out_shape: tuple,
          out_strides: tuple, threads: int, skip_nan: bool):
    """``run(x, out) -> bool`` for sums of this geometry (the arguments are `x`'s and
    `out`'s, the threads torch would use, whether NaN is still to be skipped): the
    layout's decisions taken here, so that a repeated call runs only its NumPy calls.
    A sum to one value of under two vectors gets the order of its additions instead."""
    size, axes = math.prod(shape), reduction_dims(dim, len(shape))
    contiguous = _row_major(shape, strides, dtype.itemsize)
    out_contiguous = _row_major(out_shape, out_strides, dtype.itemsize)
    if len(axes) == len(shape) and contiguous:
        if size > EXACT_SIZE:
            return _refuse
        lanes = vector_lanes(dtype.itemsize)
        if size < 2 * lanes:                                  # under two vectors
            return _few(size, dtype.itemsize)
        if size < SHORT * 4 * lanes:
            return whole_plan(size, lanes)
        return _whole_run
    one_thread_order = threads == 1 or size < POOL_SIZE and _split_keeps_order(
        shape, sorted(axes), dtype.itemsize, threads)
    if contiguous and out_contiguous and one_thread_order:
        run = _end_dims(shape, sorted(axes), dtype.itemsize)
        if run is not None:
            return run
    return functools.partial(_general, axes, skip_nan)


def _row_major(shape: tuple, strides: tuple, itemsize: int) -> bool:
    """NumPy's C_CONTIGUOUS flag of an array of this geometry (sizes 1 step anyhow)."""
    step = itemsize
    for size, stride in zip(reversed(shape), reversed(strides)):
        if size != 1 and stride != step:
            return 0 in shape
        step *= size
    return True


def _refuse(x: np.ndarray, out: np.ndarray) -> bool:
    return False


def _whole_run(x: np.ndarray, out: np.ndarray) -> bool:
    return _whole(x.reshape(-1), 1, out)


def _general(axes: tuple, skip_nan: bool, x: np.ndarray, out: np.ndarray) -> bool:
    """Any layout: TensorIterator's dims, then the kernel over them (see the Note)."""
    layout = _layout(x, axes, out)
    if layout is None:
        return False
    shape, strides = layout
    if x.size > EXACT_SIZE and not _wide_columns(shape, strides, x.itemsize):
        return False
    view = _strided(x, shape, [s * x.itemsize for s in strides[1]])
    if skip_nan:           # a copy: the kernel's paths follow `strides`, not its memory
        view = zero_nan(view)
    if out.size == 1 and x.size > GRAIN_SIZE and _threads() > 1:
        if len(shape) == 2 and shape[1] == 1:
            return _whole(view[:, 0], strides[1][0], out)
        return _stretches(view, strides[1], out)
    if out.size > 1 and x.size >= GRAIN_SIZE and _threads() > 1:
        result = _split(view, strides)
    else:
        result = _iterate(view, strides)
    kept = [d for d in range(len(shape)) if strides[0][d] != 0]
    target = _strided(out, [shape[d] for d in kept], [strides[0][d] * out.itemsize
                                                      for d in kept])
    np.add(result, 0.0, out=target, dtype=out.dtype)
    return True


def _end_dims(shape: tuple, reduced: list, itemsize: int):
    """The common layouts without TensorIterator's sort, on one thread: a contiguous
    input reduced over its leading dims is one block of rows over contiguous columns,
    reduced over its trailing dims one block of contiguous rows. ``run(x, out)`` for
    them, None otherwise."""
    size = math.prod(shape)
    if reduced == list(range(len(reduced))):
        columns = size // max(1, math.prod(shape[:len(reduced)]))
        rows, steps = size // columns, (columns, 1)
    elif reduced == list(range(len(shape) - len(reduced), len(shape))):
        rows = math.prod(shape[len(shape) - len(reduced):])
        columns, steps = size // rows, (1, rows)
    else:
        return None
    if size > EXACT_SIZE and not (steps[1] == 1 and columns * itemsize >= _WIDE_BYTES):
        return None
    lanes = vector_lanes(itemsize)
    if columns > 1 and steps[0] == 1 and lanes <= rows < SHORT * 4 * lanes:
        return rows_plan(columns, rows, lanes)
    grouped = _grouped(columns, *steps, lanes)
    if columns > 1 and steps[1] == 1 and (rows < SHORT or grouped == 0 and rows < 4 * SHORT):
        return columns_plan(rows, columns, grouped)
    return functools.partial(_end_block, (-1, columns) if steps[1] == 1 else (-1, rows),
                             steps)


def _split_keeps_order(shape: tuple, reduced: list, itemsize: int, threads: int) -> bool:
    """Whether each result of a contiguous input's sum over its leading or trailing dims
    is added in the same order on `threads` as on one (the one-thread plan then
    serves): torch splits the kept dim into ranges (`_ranges`); a row keeps its order
    in any range, a column where each range's columns group into vectors as the
    whole's do (`_grouped`). A sum to one value splits otherwise."""
    size, count = math.prod(shape), len(reduced)
    if reduced == list(range(len(shape) - count, len(shape))):
        return size // math.prod(shape[len(shape) - count:]) > 1
    columns = size // max(1, math.prod(shape[:count]))
    if reduced != list(range(count)) or columns <= 1:
        return False
    lanes = vector_lanes(itemsize)
    whole = _grouped(columns, columns, 1, lanes)
    return all(part.start + _grouped(part.stop - part.start, columns, 1, lanes)
               == min(max(whole, part.start), part.stop)
               for part in _ranges(columns, threads, 128 // itemsize))


def _end_block(shape: tuple, steps: tuple, x: np.ndarray, out: np.ndarray) -> bool:
    block = x.reshape(shape)
    np.add(_block(block if steps[1] == 1 else block.T, *steps), 0.0, out=out.reshape(-1))
    return True


def _strided(array: np.ndarray, shape: list, strides: list) -> np.ndarray:
    """A view of `array`'s memory with these shape and byte strides (a contiguous array
    lends its buffer directly, the cheaper way)."""
    if array.flags.c_contiguous:
        return np.ndarray(shape, array.dtype, buffer=array, strides=strides)
    return as_strided(array, shape, strides)


def _wide_columns(shape: list, strides: list, itemsize: int) -> bool:
    """Whether the kernel sums long contiguous runs of columns side by side, which
    NumPy adds a whole run at a time (the order then costs little at any size)."""
    return strides[0][0] == 0 != strides[0][1] and strides[1][1] == 1 and \
        shape[1] * itemsize >= _WIDE_BYTES


def vector_lanes(itemsize: int) -> int:
    """How many elements of `itemsize` bytes the sum kernel's vectors hold."""
    return _VECTOR_BYTES // itemsize


def zero_nan(values: np.ndarray) -> np.ndarray:
    """A copy of `values` with zeros for NaN (nansum's view of its input)."""
    return np.where(np.isnan(values), values.dtype.type(0), values)


@functools.cache
def _few(count: int, itemsize: int) -> np.ndarray:
    """The order in which the kernel adds a row of fewer than two vectors, one after
    another: the four-way start (0, 4, 5, ..., 1, 2, 3) below one vector; above, the
    tail past the vector, then the vector's lanes."""
    lanes = vector_lanes(itemsize)
    if count >= lanes:
        return np.r_[lanes:count, 0:lanes]
    if count >= 4:
        return np.r_[0, 4:count, 1:4]
    return np.arange(count)


def _threads() -> int:
    """The threads torch's reduction would share the work over."""
    return 1 if in_parallel_region() else get_num_threads()


# ----------------------------------------------------------------------------------
# The layout: TensorIterator's dim order and merging for a reduction
# ----------------------------------------------------------------------------------
def _layout(x: np.ndarray, axes: tuple, out: np.ndarray):
    """``(shape, (output strides, input strides))`` of the reduction's
    iteration space, innermost dim first, strides in elements; None for an input with
    a negative stride (a NumPy view torch has no counterpart of)."""
    reduced = set(axes)
    kept = iter([s for d, s in enumerate(out.strides) if d not in reduced]
                if out.ndim == x.ndim else out.strides)
    operands = ([0 if d in reduced else next(kept) // out.itemsize for d in range(x.ndim)],
                [s // x.itemsize for s in x.strides])
    if any(s < 0 for s in operands[1]):
        return None
    order = _order(x.shape, operands)
    shape = [x.shape[d] for d in order]
    strides = [[op[d] for d in order] for op in operands]
    shape, strides = _merge(shape, strides)
    if len(shape) == 1:                       # the kernel always sees two dims
        shape, strides = shape + [1], [s + [0] for s in strides]
    return shape, strides


def _order(sizes: tuple, operands: tuple) -> list:
    """The dims innermost first, as TensorIterator sorts them (`dims_in_order`):
    reduced dims first, then smaller strides, the output's deciding first."""
    def swap(d0: int, d1: int) -> int:
        for index, strides in enumerate(operands):
            s0, s1 = strides[d0], strides[d1]
            if index == 0 and (s0 == 0) != (s1 == 0):
                return 1 if s1 == 0 else -1
            if s0 == 0 or s1 == 0:
                continue
            if s0 != s1:
                return -1 if s0 < s1 else 1
            if sizes[d0] > sizes[d1]:
                return 1
        return 0

    return dims_in_order(len(sizes), swap)[::-1]


def _merge(shape: list, strides: list):
    """Neighbouring dims merged where every operand steps through both as one."""
    if len(shape) <= 1:
        return shape or [1], [s or [0] for s in strides]
    shape, strides = list(shape), [list(s) for s in strides]
    last = 0
    for d in range(1, len(shape)):
        if shape[last] == 1 or shape[d] == 1 or all(
                shape[last] * s[last] == s[d] for s in strides):
            if shape[last] == 1:
                for s in strides:
                    s[last] = s[d]
            shape[last] *= shape[d]
        else:
            last += 1
            shape[last] = shape[d]
            for s in strides:
                s[last] = s[d]
    return shape[:last + 1], [s[:last + 1] for s in strides]


# ----------------------------------------------------------------------------------
# Running the kernel over the layout
# ----------------------------------------------------------------------------------
def _whole(flat: np.ndarray, step: int, out: np.ndarray) -> bool:
    """A 1-D stretch summed to one value (`step`: its elements' distance in the input)
    split over torch's threads when large."""
    threads = _threads()
    if flat.size <= GRAIN_SIZE or threads == 1:
        total = _row(flat, step)
    else:
        used = min(threads, -(-flat.size // GRAIN_SIZE))
        chunk = -(-flat.size // used)
        parts = _on_threads(lambda i: _row(flat[i:i + chunk], step),
                            range(0, flat.size, chunk), flat.size)
        parts += [np.zeros((), flat.dtype)] * (threads - len(parts))
        total = _row(np.stack(parts), 1)      # the threads' sums, summed as a row
    out[...] = total + 0.0
    return True


def _stretches(view: np.ndarray, in_strides: list, out: np.ndarray) -> bool:
    """A sum to one value over a layout of several dims, split over torch's threads:
    each thread's stretch of the iteration order (dim 0 fastest) goes to the kernel as
    the blocks torch's iterator cuts it into (a partial row, then whole rows to the end
    of dim 1, ...), their sums added in order. False past `_BLOCKS` blocks a thread."""
    threads, size = _threads(), view.size
    used = min(threads, -(-size // GRAIN_SIZE))
    chunk = -(-size // used)
    rows, row_count = view.shape[0], view.shape[1]
    if size // (rows * row_count) > _BLOCKS * used:
        return False
    # the outer dims as one, the first fastest as the iterator counts them
    flat = view.transpose(0, 1, *range(view.ndim - 1, 1, -1)).reshape(rows, row_count, -1)
    parts = []
    for begin in range(0, size, chunk):
        end, sums = min(size, begin + chunk), []
        while begin < end:
            first, row, outer = begin % rows, begin // rows % row_count, begin // rows // row_count
            step0 = min(rows - first, end - begin)
            step1 = min(row_count - row, (end - begin) // rows) if step0 == rows else 1
            block = flat[first:first + step0, row:row + step1, outer]
            sums.append(_block(block, in_strides[0], in_strides[1]))
            begin += step0 * step1
        parts.append(_sequential(np.concatenate(sums)))
    parts += [np.zeros((), view.dtype)] * (threads - len(parts))
    np.copyto(out, _row(np.stack(parts), 1) + out.dtype.type(0))
    return True


def _row(values: np.ndarray, step: int) -> np.ndarray:
    """One 1-D stretch's sum as the kernel adds a single row."""
    if step == 1 and values.size >= vector_lanes(values.itemsize):
        return _inner_rows(values)
    return _four_way(values)


def _iterate(view: np.ndarray, strides: list) -> np.ndarray:
    """The kernel over every 2-D block at once: the result over the kept dims (the
    output's strides are zero exactly on the reduced dims)."""
    out_strides, in_strides = strides
    if out_strides[1] == 0 and out_strides[0] != 0:
        view = view.swapaxes(0, 1)
        in_strides = [in_strides[1], in_strides[0]] + in_strides[2:]
        out_strides = [0, out_strides[0]] + out_strides[2:]
    if out_strides[0] != 0:                   # nothing reduced: each element its sum
        return view
    sums = _block(view, in_strides[0], in_strides[1])
    if out_strides[1] != 0:
        return sums
    # both block dims reduced: each call's sums are added in order into the output,
    # the block's columns first, then the reduced outer dims (the first of them fastest)
    reduced = 1 + sum(1 for s in out_strides[2:] if s == 0)
    sums = sums.transpose(list(range(reduced))[::-1] + list(range(reduced, sums.ndim)))
    return _sequential(sums.reshape((-1,) + sums.shape[reduced:]))


def _split(view: np.ndarray, strides: list) -> np.ndarray:
    """A reduction over a dim shared over threads as torch shares it: ranges of one
    kept dim (`_split_dim`), starting at 128-byte multiples where that dim is
    contiguous. A split of the block's columns changes how they group into vectors;
    each range is reduced on its own and the results joined."""
    out_strides, in_strides = strides
    dim = _split_dim(view.shape, out_strides)
    ranges = _ranges(view.shape[dim], _threads(),
                     128 // view.itemsize if in_strides[dim] == 1 else 1)
    index = (slice(None),) * dim
    pieces = _on_threads(lambda part: _iterate(view[index + (part,)], strides), ranges,
                         view.size)
    kept_before = sum(1 for d in range(dim) if out_strides[d] != 0)
    return np.concatenate(pieces, axis=kept_before)


def _ranges(size: int, threads: int, multiple: int) -> list:
    """The slices of a kept dim of `size` that torch's threads reduce, cut at multiples
    of `multiple` (128 bytes where the dim is contiguous)."""
    chunk, ranges = -(-size // min(threads, size)), []
    for begin in range(0, size, chunk):
        end = min(size, begin + chunk)
        begin, end = begin - begin % multiple, end if end == size else end - end % multiple
        if begin < end:
            ranges.append(slice(begin, end))
    return ranges


def _on_threads(work, items, elements: int) -> list:
    """``[work(item) for item in items]``, one item per thread of the pool when the
    `elements` they sum together are worth a thread's wake-up (`POOL_SIZE`); the bits
    are the same either way, the split being torch's and not the pool's."""
    items = list(items)
    if elements < POOL_SIZE:
        return [work(item) for item in items]
    results = [None] * len(items)

    def run(start: int, stop: int) -> None:
        for i in range(start, stop):
            results[i] = work(items[i])
    parallel_for(0, len(items), 1, run)
    return results


def _split_dim(shape: list, out_strides: list) -> int:
    """The dim a reduction's threads split: from the outermost, the first kept dim at
    least as long as there are threads, else the longest of the kept outer dims."""
    best = len(shape) - 1
    for d in range(len(shape) - 1, -1, -1):
        if out_strides[d] == 0 and shape[d] > 1:
            break
        if shape[d] >= _threads():
            return d
        if shape[d] > shape[best]:
            best = d
    return best


# ----------------------------------------------------------------------------------
# The block kernel: sums down axis 0 ("rows"), one per column of axis 1 and beyond
# ----------------------------------------------------------------------------------
def _block(block: np.ndarray, row_step: int, column_step: int) -> np.ndarray:
    """Each column's sum over the rows, as the kernel chooses by layout."""
    lanes = vector_lanes(block.itemsize)
    rows, columns = block.shape[:2]
    if row_step == 1 and rows >= lanes:
        return _inner_rows(block)
    grouped = _grouped(columns, row_step, column_step, lanes)
    if grouped == 0:
        return _four_way(block)
    if grouped == columns:
        return _cascade(block)
    return np.concatenate([_cascade(block[:, :grouped]), _four_way(block[:, grouped:])])


def _grouped(columns: int, row_step: int, column_step: int, lanes: int) -> int:
    """How many leading columns the kernel sums side by side as cascades (the rest
    four-way)."""
    if column_step == 1 and columns >= lanes:
        return columns // (4 * lanes) * 4 * lanes          # four vectors of columns
    if row_step < column_step:
        return 0
    return columns // 4 * 4                                 # four columns side by side


def _inner_rows(rows: np.ndarray) -> np.ndarray:
    """Sums down axis 0 read as vectors: four-way over whole vectors, then the tail
    left to right, then the vector's lanes one by one."""
    lanes = vector_lanes(rows.itemsize)
    whole = rows.shape[0] // lanes * lanes
    vectors = _four_way(rows[:whole].reshape((whole // lanes, lanes) + rows.shape[1:]))
    if whole == rows.shape[0]:
        return _sequential(vectors)
    return _sequential(np.concatenate((rows[whole:], vectors)))


def _four_way(rows: np.ndarray) -> np.ndarray:
    """Four interleaved cascades (rows i mod 4), the left-over rows added to the first,
    then the four added in order."""
    whole = rows.shape[0] // 4 * 4
    if whole == 0:                            # four empty cascades: a plain row
        return _sequential(rows)
    parts = _cascade(rows[:whole].reshape((whole // 4, 4) + rows.shape[1:]))
    if whole == rows.shape[0]:
        return _sequential(parts)
    return _sequential(np.concatenate((parts[:1], rows[whole:], parts[1:])))


def _cascade(rows: np.ndarray) -> np.ndarray:
    """The four-level cascade down axis 0 (see the Note)."""
    steps = rows.shape[0]
    width = 16 if steps <= 1 << 16 else 1 << (_ceil_log2(steps) // 4)
    total, level = None, rows
    for _ in range(3):                        # the first three accumulators
        if level.shape[0] < width:
            break
        whole = level.shape[0] // width * width
        if whole < level.shape[0]:
            tail = _sequential(level[whole:])
            total = tail if total is None else total + tail
        level = _sequential(level[:whole].reshape((whole // width, width) + level.shape[1:]),
                            axis=1)
    rest = _sequential(level)                 # the last accumulator, or the one reached
    return rest if total is None else total + rest


def _ceil_log2(n: int) -> int:
    return 1 if n <= 2 else (n - 1).bit_length()


def _sequential(values: np.ndarray, axis: int = 0) -> np.ndarray:
    """Left-to-right sums along `axis` (zeros for none).

    NumPy's reduction adds left to right along an axis when a smaller stride than the
    axis's runs inside it (its loop then adds whole slices); along the innermost axis
    it adds pairwise, so there the slices are added one by one."""
    count = values.shape[axis]
    if count <= 1:
        return values.sum(axis=axis) if count == 0 else values[(slice(None),) * axis + (0,)]
    step = abs(values.strides[axis])
    if any(n > 1 and abs(s) < step for n, s in zip(values.shape, values.strides)):
        return np.add.reduce(values, axis=axis)
    values = np.moveaxis(values, axis, 0) if axis else values
    if count > _LOOP or values.ndim == 1:
        return np.add.accumulate(values, axis=0)[-1]
    total = values[0] + values[1]
    for i in range(2, count):
        np.add(total, values[i], out=total)
    return total
