"""torch.nn.utils.rnn: batches of sequences of different lengths, padded or packed.

A `PackedSequence` holds the rows of a batch step by step, longest sequences first
(``data``), how many sequences are still running at each step (``batch_sizes``, on the
CPU), and the permutations between the caller's order and the sorted one. Recurrent
modules take one and run only the running rows at each step. The packing kernels are
operators of `aten/native/nn/rnn_packing.py`; this module is their Python front end.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple

import glasstorch as torch
from ...aten.binding import get_binding

__all__ = ["PackedSequence", "invert_permutation", "pack_padded_sequence",
           "pad_packed_sequence", "pad_sequence", "unpad_sequence", "pack_sequence",
           "unpack_sequence"]

Tensor = torch.Tensor


class PackedSequence_(NamedTuple):
    data: Tensor
    batch_sizes: Tensor
    sorted_indices: Tensor | None
    unsorted_indices: Tensor | None


def bind(optional, fn):
    """``fn(optional)``, or None when `optional` is None."""
    return None if optional is None else fn(optional)


class PackedSequence(PackedSequence_):
    """A batch of variable-length sequences, packed step by step; build one with
    `pack_padded_sequence` or `pack_sequence`, never by hand.

    Attributes:
        data (Tensor): the rows of every step, ``(sum(batch_sizes), *)``.
        batch_sizes (Tensor): the number of sequences running at each step (CPU int64).
        sorted_indices (Tensor, optional): the caller's batch order sorted by length.
        unsorted_indices (Tensor, optional): its inverse.

    Example::

        >>> packed = pack_sequence([torch.tensor([1, 2, 3]), torch.tensor([4])])
        >>> packed.data, packed.batch_sizes
        (tensor([1, 4, 2, 3]), tensor([2, 1, 1]))
    """

    def __new__(cls, data, batch_sizes=None, sorted_indices=None, unsorted_indices=None):
        if unsorted_indices is None:
            unsorted_indices = invert_permutation(sorted_indices)
        if batch_sizes is None:
            if not (isinstance(data, (list, tuple)) and len(data) == 2):
                raise AssertionError("Expected data to be a list or tuple of length 2")
            data, batch_sizes = data
        elif batch_sizes.device.type != "cpu":
            raise ValueError(
                "batch_sizes should always be on CPU. Instances of PackedSequence should "
                "never be created manually. They should be instantiated by functions like "
                "pack_sequence and pack_padded_sequences in nn.utils.rnn. "
                "https://pytorch.org/docs/stable/nn.html#torch.nn.utils.rnn.pack_sequence")
        return super().__new__(cls, data, batch_sizes, sorted_indices, unsorted_indices)

    def pin_memory(self) -> PackedSequence:
        return type(self)(self.data.pin_memory(), self.batch_sizes,
                          bind(self.sorted_indices, lambda t: t.pin_memory()),
                          bind(self.unsorted_indices, lambda t: t.pin_memory()))

    def to(self, *args: Any, **kwargs: Any) -> PackedSequence:
        """The sequence with `data` converted as `Tensor.to` does (the permutations
        follow it to its device); itself when nothing changes."""
        data = self.data.to(*args, **kwargs)
        if data is self.data:
            return self
        non_blocking = kwargs.get("non_blocking", False)

        def follow(t):
            return t.to(data.device, non_blocking=non_blocking)
        return type(self)(data, self.batch_sizes, bind(self.sorted_indices, follow),
                          bind(self.unsorted_indices, follow))

    def cuda(self, device=None, non_blocking: bool = False) -> PackedSequence:
        return self.to("cuda" if device is None else device, non_blocking=non_blocking)

    def cpu(self) -> PackedSequence:
        return self.to("cpu")

    def double(self) -> PackedSequence:
        return self.to(dtype=torch.double)

    def float(self) -> PackedSequence:
        return self.to(dtype=torch.float)

    def half(self) -> PackedSequence:
        return self.to(dtype=torch.half)

    def long(self) -> PackedSequence:
        return self.to(dtype=torch.long)

    def int(self) -> PackedSequence:
        return self.to(dtype=torch.int)

    def short(self) -> PackedSequence:
        return self.to(dtype=torch.short)

    def char(self) -> PackedSequence:
        return self.to(dtype=torch.int8)

    def byte(self) -> PackedSequence:
        return self.to(dtype=torch.uint8)

    @property
    def is_cuda(self) -> bool:
        """Whether `data` is on a CUDA device."""
        return self.data.is_cuda

    def is_pinned(self) -> bool:
        """Whether `data` is in pinned memory."""
        return self.data.is_pinned()


def invert_permutation(permutation: Tensor | None) -> Tensor | None:
    """The inverse of a permutation of ``0..n-1`` (None stays None).

    Example::

        >>> invert_permutation(torch.tensor([2, 0, 1]))
        tensor([1, 2, 0])
    """
    if permutation is None:
        return None
    output = torch.empty_like(permutation, memory_format=torch.legacy_contiguous_format)
    output.scatter_(0, permutation, torch.arange(0, permutation.numel(),
                                                 device=permutation.device))
    return output


def pack_padded_sequence(input: Tensor, lengths, batch_first: bool = False,
                         enforce_sorted: bool = True) -> PackedSequence:
    """Pack a padded batch of sequences.

    Args:
        input (Tensor): ``(time, batch, *)``, or ``(batch, time, *)`` when `batch_first`.
        lengths (Tensor or list of int): each sequence's length (on the CPU).
        batch_first (bool): the layout of `input`.
        enforce_sorted (bool): the lengths must decrease; False sorts the batch first
            (and the PackedSequence remembers the order).

    Returns:
        a PackedSequence.

    Example::

        >>> pack_padded_sequence(torch.tensor([[1, 4], [2, 0], [3, 0]]), [3, 1]).data
        tensor([1, 4, 2, 3])
    """
    if isinstance(lengths, torch.Tensor):
        lengths = lengths.to(dtype=torch.int64)
    else:
        lengths = torch.as_tensor(lengths, dtype=torch.int64, device="cpu")
    sorted_indices = None
    if not enforce_sorted:
        lengths, sorted_indices = torch.sort(lengths, descending=True)
        sorted_indices = sorted_indices.to(input.device)
        input = input.index_select(0 if batch_first else 1, sorted_indices)
    data, batch_sizes = torch._pack_padded_sequence(input, lengths, batch_first)
    return PackedSequence(data, batch_sizes, sorted_indices, None)


def pad_packed_sequence(sequence: PackedSequence, batch_first: bool = False,
                        padding_value: float = 0.0,
                        total_length: int | None = None) -> tuple[Tensor, Tensor]:
    """Unpack a PackedSequence into a padded batch, in the caller's order.

    Args:
        sequence (PackedSequence): what to unpack.
        batch_first (bool): return ``(batch, time, *)`` instead of ``(time, batch, *)``.
        padding_value (float): what fills the slots past a sequence's end.
        total_length (int, optional): pad the time dimension to this length.

    Returns:
        ``(padded, lengths)``, lengths an int64 tensor.

    Example::

        >>> padded, lengths = pad_packed_sequence(pack_sequence([torch.ones(2), torch.ones(1)]))
        >>> padded.T, lengths
        (tensor([[1., 1.],
                [1., 0.]]), tensor([2, 1]))
    """
    longest = sequence.batch_sizes.size(0)
    if total_length is not None:
        if total_length < longest:
            raise ValueError("Expected total_length to be at least the length of the "
                             f"longest sequence in input, but got total_length={total_length} "
                             f"and max sequence length being {longest}")
        longest = total_length
    padded, lengths = torch._pad_packed_sequence(sequence.data, sequence.batch_sizes,
                                                 batch_first, padding_value, longest)
    if sequence.unsorted_indices is None:
        return padded, lengths
    return (padded.index_select(0 if batch_first else 1, sequence.unsorted_indices),
            lengths[sequence.unsorted_indices.cpu()])


def pad_sequence(sequences, batch_first: bool = False, padding_value: float = 0.0,
                 padding_side: str = "right") -> Tensor:
    """Stack sequences of different lengths into one padded batch.

    Args:
        sequences (iterable of Tensor): each ``(length, *)``, the same trailing sizes.
        batch_first (bool): return ``(batch, time, *)`` instead of ``(time, batch, *)``.
        padding_value (float): what fills the slots past a sequence's end.
        padding_side (str): ``"right"`` (after each sequence) or ``"left"``.

    Returns:
        the padded batch.

    Example::

        >>> pad_sequence([torch.ones(2), torch.ones(1)], padding_side="left")
        tensor([[1., 0.],
                [1., 1.]])
    """
    if not isinstance(sequences, Iterable):
        raise RuntimeError("pad_sequence: Expected iterable for input sequences, but got arg "
                           f"of type: {type(sequences)}")
    return get_binding("nn", "pad_sequence")(tuple(sequences), batch_first, padding_value,
                                             padding_side)


def unpad_sequence(padded_sequences: Tensor, lengths: Tensor,
                   batch_first: bool = False) -> list[Tensor]:
    """Split a padded batch back into its sequences (the inverse of `pad_sequence`).

    Note that, as torch's, it transposes `padded_sequences` in place when not
    `batch_first`.

    Example::

        >>> unpad_sequence(torch.tensor([[1, 4], [2, 0]]), torch.tensor([2, 1]))
        [tensor([1, 2]), tensor([4])]
    """
    if not batch_first:
        padded_sequences.transpose_(0, 1)
    positions = torch.arange(padded_sequences.shape[1], device=lengths.device)
    return [sequence[positions < length]
            for sequence, length in zip(padded_sequences, lengths, strict=True)]


def pack_sequence(sequences: list[Tensor], enforce_sorted: bool = True) -> PackedSequence:
    """Pack a list of sequences of different lengths (longest first unless
    ``enforce_sorted=False``).

    Example::

        >>> packed = pack_sequence([torch.tensor([1]), torch.tensor([2, 3])],
        ...                        enforce_sorted=False)
        >>> packed.data, packed.sorted_indices
        (tensor([2, 1, 3]), tensor([1, 0]))
    """
    lengths = torch.as_tensor([sequence.size(0) for sequence in sequences])
    return pack_padded_sequence(pad_sequence(sequences), lengths,
                                enforce_sorted=enforce_sorted)


def unpack_sequence(packed_sequences: PackedSequence) -> list[Tensor]:
    """The list of sequences a PackedSequence holds, in the caller's order.

    Example::

        >>> unpack_sequence(pack_sequence([torch.tensor([1, 2]), torch.tensor([3])]))
        [tensor([1, 2]), tensor([3])]
    """
    padded, lengths = pad_packed_sequence(packed_sequences, batch_first=True)
    return unpad_sequence(padded, lengths, batch_first=True)
