"""The short float sums of Note [Cascade sum order] as few NumPy calls as their order
allows (`cascade._plan` chooses them, once per geometry).

NumPy's reduction down axis 0 adds whole rows in order wherever a smaller stride runs
inside that axis, which is the kernel's order where it sums columns side by side. A
reduction costs about one inner loop per row past a fixed ~1 us, so each step below is
one reduction over rows as wide as the order lets them be, and every decision that
depends on the geometry alone is taken when the plan is made.

Each short sum ends as *partials*: rows whose sum in order is the result. A cascade
(under `SHORT` rows: one level) leaves its chunks' sums, then its tail's sum (torch adds
the tail to the chunks' sum, and one addition does not depend on the order of its two
terms); four interleaved cascades leave the first one's sum, the left-over rows, then
the other three sums. The last reduction starts from +0.0 (`initial`): a sum is -0.0
only when all its terms are, so that zero changes the result as torch's closing
``+ 0.0`` does, and an intermediate zero's sign never matters.
"""
from __future__ import annotations

import numpy as np

SHORT = 256         # rows a cascade sums with one level (16 chunks of 16)
_CHUNK = 16         # the cascade's first level adds rows in chunks this long


def columns_plan(rows: int, columns: int, grouped: int):
    """``run(x, out)``: cascade.py's `_block` of a row-major (rows, columns) block summed
    down its rows, the first `grouped` columns as cascades side by side and the rest
    four-way (a width that is not a whole number of four vectors: a (64, 100) bias
    gradient's)."""
    shape = (rows, columns)
    if grouped in (0, columns):
        count, partials_of = (_cascade_plan if grouped else _four_way_plan)(shape)
        if count == 1 and rows > _CHUNK:  # the sum itself, its tail added from +0.0

            def run(x: np.ndarray, out: np.ndarray) -> bool:
                partials_of(x.reshape(shape), out.reshape(1, columns))
                return True
            return run

        def run(x: np.ndarray, out: np.ndarray) -> bool:
            np.add.reduce(partials_of(x.reshape(shape)), 0, None, out.reshape(-1), False, 0.0)
            return True
        return run
    first, rest = slice(0, grouped), slice(grouped, columns)
    (count, cascade), (other, four_way) = (_cascade_plan((rows, grouped)),
                                           _four_way_plan((rows, columns - grouped)))
    if count == other and rows > _CHUNK:  # as many partials: one closing reduction

        def run(x: np.ndarray, out: np.ndarray) -> bool:
            block, partials = x.reshape(shape), np.empty((count, columns), x.dtype)
            cascade(block[:, first], partials[:, first])
            four_way(block[:, rest], partials[:, rest])
            np.add.reduce(partials, 0, None, out.reshape(-1), False, 0.0)
            return True
        return run

    def run(x: np.ndarray, out: np.ndarray) -> bool:
        block, flat = x.reshape(shape), out.reshape(-1)
        np.add.reduce(cascade(block[:, first]), 0, None, flat[first], False, 0.0)
        np.add.reduce(four_way(block[:, rest]), 0, None, flat[rest], False, 0.0)
        return True
    return run


def rows_plan(count: int, length: int, lanes: int):
    """``run(x, out)``: cascade.py's `_inner_rows` of each row of a row-major (count,
    length) matrix, on its transposed copy (the rows' elements then lie down axis 0,
    where NumPy adds in order)."""
    vectors = length // lanes
    whole, in_vectors, in_lanes = vectors * lanes, (vectors, lanes * count), (lanes, count)
    _, vector_partials = _four_way_plan(in_vectors)
    itself = vector_partials is _itself       # up to four vectors: added in order

    def run(x: np.ndarray, out: np.ndarray) -> bool:
        down = x.reshape(count, length).T.copy()
        partials = (down if whole == length else down[:whole]).reshape(in_vectors)
        if not itself:
            partials = vector_partials(partials)
        summed = _in_order(partials).reshape(in_lanes)
        if whole < length:                    # the tail first, then the lanes
            summed = np.concatenate((down[whole:], summed))
        np.add.reduce(summed, 0, None, out.reshape(-1), False, 0.0)
        return True
    return run


def whole_plan(size: int, lanes: int):
    """``run(x, out)``: cascade.py's `_inner_rows` of a short contiguous input summed to
    one value (at least two vectors)."""
    vectors = size // lanes
    whole = vectors * lanes
    _, vector_partials = _four_way_plan((vectors, lanes))

    def run(x: np.ndarray, out: np.ndarray) -> bool:
        flat = x.reshape(-1)
        summed = _in_order(vector_partials(flat[:whole].reshape(vectors, lanes)))
        if whole < size:
            summed = np.concatenate((flat[whole:], summed))
        out[...] = np.add.accumulate(summed)[-1] + 0.0
        return True
    return run


# ----------------------------------------------------------------------------------
# Partials: ``(how many, partials_of(block, into=None))`` for a block of the given
# shape, the second giving the rows whose sum in order down axis 0 is each column's
# (written into `into` when given)
# ----------------------------------------------------------------------------------
def _in_order(partials: np.ndarray, into=None) -> np.ndarray:
    """The rows of `partials` added in order (two: one addition, cheaper)."""
    if partials.shape[0] == 2:
        return np.add(partials[0], partials[1], out=into)
    return np.add.reduce(partials, 0, None, into)


def _itself(block: np.ndarray, into=None) -> np.ndarray:
    if into is None:
        return block
    np.copyto(into, block)
    return into


def _cascade_plan(shape: tuple):
    """A cascade down the `shape[0]` rows (under `SHORT`): at most one chunk is its rows
    in order; more leave the chunks' sums, then the tail's sum."""
    rows, width = shape[0], shape[1:]
    chunks, tail = divmod(rows, _CHUNK)
    if rows <= _CHUNK:
        return rows, _itself
    whole, in_chunks = chunks * _CHUNK, (chunks, _CHUNK) + width
    if chunks == 1:                   # one chunk and a tail: added at once
        def partials_of(block: np.ndarray, into=None) -> np.ndarray:
            if into is None:
                into = np.empty((1,) + width, block.dtype)
            tail_sum = np.add.reduce(block[whole:], 0, None, None, False, 0.0)
            return np.add(np.add.reduce(block[:whole], 0), tail_sum, out=into[0])[None]
        return 1, partials_of
    if tail == 0:
        def partials_of(block: np.ndarray, into=None) -> np.ndarray:
            return np.add.reduce(block.reshape(in_chunks), 1, None, into)
        return chunks, partials_of

    def partials_of(block: np.ndarray, into=None) -> np.ndarray:
        if into is None:
            into = np.empty((chunks + 1,) + width, block.dtype)
        np.add.reduce(block[:whole].reshape(in_chunks), 1, None, into[:chunks])
        np.add.reduce(block[whole:], 0, None, into[chunks])
        return into
    return chunks + 1, partials_of


def _four_way_plan(shape: tuple):
    """Four interleaved cascades down the `shape[0]` rows (rows i mod 4, under
    4 * `SHORT`), left-over rows added into the first: up to four rows are their rows
    in order."""
    rows, width = shape[0], shape[1:]
    whole = rows // 4 * 4
    if whole == 0 or rows == 4:       # one step of each cascade: the rows in order
        return rows, _itself
    left, in_steps = rows - whole, (whole // 4, 4) + width
    step_count, step_partials = _cascade_plan(in_steps)

    def parts_of(block: np.ndarray, into=None) -> np.ndarray:
        """The four cascades' sums."""
        partials = step_partials((block[:whole] if left else block).reshape(in_steps))
        if step_count == 1:
            return _itself(partials[0], into)
        return _in_order(partials, into)
    if left == 0:
        return 4, parts_of

    def partials_of(block: np.ndarray, into=None) -> np.ndarray:
        parts = parts_of(block)
        if into is None:
            return np.concatenate((parts[:1], block[whole:], parts[1:]))
        into[0], into[1:left + 1], into[left + 1:] = parts[0], block[whole:], parts[1:]
        return into
    return 4 + left, partials_of
