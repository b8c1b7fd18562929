"""Packing variable-length sequences: `_pack_padded_sequence`, `_pad_packed_sequence` and
`pad_sequence` (the kernels of torch.nn.utils.rnn).

A packed sequence stores, time step by time step, the rows of the sequences still
running at that step (sorted longest first), with ``batch_sizes[t]`` rows at step ``t``.
Packing and unpacking are each one `index_select` of precomputed row numbers, so
autograd sees one node and the gradient scatters back in one step.
"""
from __future__ import annotations

import numpy as np

from ....c10 import dtype as dtypes
from ....c10.dispatch_key import DispatchKey
from ....c10.tensor_impl import wrap_array
from ...dispatcher import ops
from ...registry import composite

_aten = ops.aten


def _row_numbers(batch_sizes: list, batch: int) -> np.ndarray:
    """For each packed row, its row in the ``(time * batch, ...)`` padded layout."""
    return np.concatenate([t * batch + np.arange(size) for t, size in enumerate(batch_sizes)])


def _check_lengths(lengths, batch: int) -> list:
    """The lengths as ints, refused as torch refuses them: they are read on the host, so
    they must be a CPU tensor (its dispatch key says so)."""
    on_host = lengths._keys & DispatchKey.CPU
    if lengths.dim() != 1 or lengths._dtype != dtypes.int64 or not on_host:
        raise RuntimeError(f"'lengths' argument should be a 1D CPU int64 tensor, but got "
                           f"{lengths.dim()}D {lengths.device} "
                           f"{dtypes.scalar_type_name(lengths._dtype)} tensor")
    values = [int(length) for length in lengths.tolist()]
    if len(values) != batch:
        raise RuntimeError(f"Expected `len(lengths)` to be equal to batch_size, but got "
                           f"{len(values)} (batch_size={batch})")
    if values and values[-1] <= 0:
        raise RuntimeError("Length of all samples has to be greater than 0, but found an "
                           "element in 'lengths' that is <= 0")
    if any(earlier < later for earlier, later in zip(values, values[1:])):
        raise RuntimeError("`lengths` array must be sorted in decreasing order when "
                           "`enforce_sorted` is True. You can pass `enforce_sorted=False` to "
                           "pack_padded_sequence and/or pack_sequence to sidestep this "
                           "requirement if you do not need ONNX exportability.")
    return values


def _int64(values) -> object:
    """A CPU int64 tensor of `values` (row numbers, sizes)."""
    return wrap_array(np.asarray(values, dtype=np.int64), dtypes.int64)


@composite("_pack_padded_sequence(Tensor input, Tensor lengths, bool batch_first) "
           "-> (Tensor, Tensor)")
def _pack_padded_sequence(input, lengths, batch_first):
    """Pack a padded ``(time, batch, *)`` batch (``(batch, time, *)`` when `batch_first`)
    whose sequences' `lengths` decrease.

    Returns:
        ``(data, batch_sizes)``: the running rows of each step, and their counts.

    Example::

        >>> data, sizes = torch._pack_padded_sequence(torch.arange(6.).view(3, 2),
        ...                                           torch.tensor([3, 1]), False)
        >>> data, sizes
        (tensor([0., 1., 2., 4.]), tensor([2, 1, 1]))
    """
    if batch_first:
        input = _aten.transpose.int.call(input, 0, 1)
    steps, batch = input._size[0], input._size[1]
    values = _check_lengths(lengths, batch)
    batch_sizes = [sum(length > t for length in values) for t in range(values[0])]
    rows = _row_numbers(batch_sizes, batch)
    flat = _aten.reshape.default.call(input, (steps * batch,) + input._size[2:])
    data = _aten.index_select.default.call(flat, 0, _int64(rows).to(input.device))
    return data, _int64(batch_sizes)


@composite("_pad_packed_sequence(Tensor data, Tensor batch_sizes, bool batch_first, "
           "Scalar padding_value, int total_length) -> (Tensor, Tensor)")
def _pad_packed_sequence(data, batch_sizes, batch_first, padding_value, total_length):
    """Unpack `data` of a packed sequence into a ``(total_length, batch, *)`` padded batch
    (``(batch, total_length, *)`` when `batch_first`), padding with `padding_value`.

    Returns:
        ``(padded, lengths)``: the batch and each sequence's length (int64).

    Example::

        >>> padded, lengths = torch._pad_packed_sequence(
        ...     torch.tensor([0., 1., 2., 4.]), torch.tensor([2, 1, 1]), False, -1, 3)
        >>> padded, lengths
        (tensor([[ 0.,  1.],
                [ 2., -1.],
                [ 4., -1.]]), tensor([3, 1]))
    """
    sizes = [int(size) for size in batch_sizes.tolist()]
    batch, steps = sizes[0], max(total_length, len(sizes))
    lengths = [sum(size > b for size in sizes) for b in range(batch)]
    # each padded slot takes its packed row, or the padding row appended after the last
    source = np.full(steps * batch, data._size[0], dtype=np.int64)
    source[_row_numbers(sizes, batch)] = np.arange(data._size[0])
    padding = _aten.full.default.call((1,) + data._size[1:], padding_value, data._dtype,
                                      None, data.device, None)
    rows = _aten.cat.default.call([data, padding], 0)
    slots = _int64(source.reshape(steps, batch)).to(data.device)
    padded = _aten.index.Tensor.call(rows, [slots])
    if batch_first:
        padded = _aten.transpose.int.call(padded, 0, 1)
    return padded, _int64(lengths)


def _check_sequences(sequences, padding_side: str) -> None:
    if not sequences:
        raise RuntimeError("received an empty list of sequences")
    if padding_side not in ("left", "right"):
        raise RuntimeError(f"Expected padding_side to be one of left or right, but got "
                           f"{padding_side}.")
    trailing = sequences[0]._size[1:]
    for sequence in sequences[1:]:
        for dim, (wanted, got) in enumerate(zip(trailing, sequence._size[1:]), 1):
            if wanted != got:
                raise RuntimeError(f"The size of tensor a ({wanted}) must match the size of "
                                   f"tensor b ({got}) at non-singleton dimension {dim}")


@composite("pad_sequence(Tensor[] sequences, bool batch_first=False, float padding_value=0.0, "
           "str padding_side=\"right\") -> Tensor", python_module="nn")
def pad_sequence(sequences, batch_first=False, padding_value=0.0, padding_side="right"):
    """Stack sequences of different lengths into one padded batch.

    Args:
        sequences (list of Tensor): each ``(length, *)``, with the same trailing sizes.
        batch_first (bool): the result is ``(batch, time, *)`` instead of
            ``(time, batch, *)``.
        padding_value (float): what fills the slots past a sequence's end.
        padding_side (str): ``"right"`` pads after each sequence, ``"left"`` before.

    Returns:
        the padded batch.

    Example::

        >>> torch.nn.utils.rnn.pad_sequence([torch.ones(2), torch.ones(1)], True)
        tensor([[1., 1.],
                [1., 0.]])
    """
    _check_sequences(sequences, padding_side)
    longest = max(sequence._size[0] for sequence in sequences)
    columns = []
    for sequence in sequences:
        missing = longest - sequence._size[0]
        if missing:
            fill = _aten.full.default.call((missing,) + sequence._size[1:], padding_value,
                                           sequence._dtype, None, sequence.device, None)
            pieces = [sequence, fill] if padding_side == "right" else [fill, sequence]
            sequence = _aten.cat.default.call(pieces, 0)
        columns.append(sequence)
    return _aten.stack.default.call(columns, 0 if batch_first else 1)
