"""DistributedDataParallel's reducer: gradients averaged across the ranks in buckets, each
bucket's all-reduce started as soon as backward has produced its last gradient.

# Note [Gradient buckets]
#
# Parameters are grouped, in the reverse of their registration order (roughly the order
# backward reaches them), into flat buckets of at most `bucket_cap_mb` (the first one
# small, 1 MiB, so that communication starts early), one dtype per bucket. A hook after
# each parameter's gradient accumulation copies the gradient into its bucket; when a
# bucket is complete its all-reduce starts (nonblocking MPI) while backward goes on, so
# communication overlaps the rest of backward. When the last bucket starts, the reducer
# waits for all of them and writes the averages back into the ``.grad``s (with
# ``gradient_as_bucket_view`` the ``.grad``s are views of the buckets already).
#
# A parameter no gradient reaches would leave its bucket incomplete forever: with
# ``find_unused_parameters`` the reducer walks the autograd graph after forward and
# counts the unreached parameters ready at once; without it, the next forward finds the
# unfinished reduction and raises torch's error.
"""
from __future__ import annotations

from typing import Any, Callable

import glasstorch as torch
from glasstorch.distributed.collectives import start_bucket_average

_FIRST_BUCKET_BYTES = 1024 * 1024

_UNFINISHED = (
    "Expected to have finished reduction in the prior iteration before starting a new one. "
    "This error indicates that your module has parameters that were not used in producing "
    "loss. You can enable unused parameter detection by passing the keyword argument "
    "`find_unused_parameters=True` to `torch.nn.parallel.DistributedDataParallel`, and by "
    "making sure all `forward` function outputs participate in calculating loss.")


class GradBucket:
    """One bucket, as a communication hook sees it: its flat `buffer()` of gradients."""

    def __init__(self, index: int, parameters: list, buffer: Any, is_last: bool) -> None:
        self._index, self._parameters, self._buffer = index, parameters, buffer
        self._is_last = is_last
        self.offsets = []
        offset = 0
        for parameter in parameters:
            self.offsets.append(offset)
            offset += parameter.numel()

    def index(self) -> int:
        return self._index

    def buffer(self) -> Any:
        """The bucket's gradients, flattened and concatenated."""
        return self._buffer

    def set_buffer(self, buffer: Any) -> None:
        self._buffer.copy_(buffer)

    def parameters(self) -> list:
        return list(self._parameters)

    def gradients(self) -> list:
        """Each parameter's gradient, as a view of the buffer."""
        return [self.slice(i) for i in range(len(self._parameters))]

    def slice(self, i: int) -> Any:
        parameter = self._parameters[i]
        start = self.offsets[i]
        return self._buffer[start:start + parameter.numel()].view(parameter.shape)

    def is_last(self) -> bool:
        return self._is_last


def assign_buckets(parameters: list, cap_bytes: int) -> list:
    """The parameters grouped into buckets (Note [Gradient buckets])."""
    buckets, current, size, limit = [], [], 0, min(_FIRST_BUCKET_BYTES, cap_bytes)
    for parameter in reversed(parameters):
        if current and (size >= limit or parameter.dtype != current[-1].dtype):
            buckets.append(current)
            current, size, limit = [], 0, cap_bytes
        current.append(parameter)
        size += parameter.numel() * parameter.element_size()
    return buckets + ([current] if current else [])


class Reducer:
    """Average the gradients of `parameters` across `process_group` during backward."""

    def __init__(self, parameters: list, process_group: Any, cap_bytes: int,
                 find_unused: bool, gradient_as_bucket_view: bool) -> None:
        self.process_group, self.find_unused = process_group, find_unused
        self.as_view = gradient_as_bucket_view
        groups = assign_buckets(parameters, cap_bytes)
        self.buckets = [GradBucket(i, group, torch.zeros(sum(p.numel() for p in group),
                                                         dtype=group[0].dtype),
                                   i == len(groups) - 1) for i, group in enumerate(groups)]
        self.place = {id(p): (b, i) for b in self.buckets for i, p in enumerate(b._parameters)}
        self.hook: Callable | None = None
        self.state: Any = None
        self.active, self.pending, self.works = False, {}, []
        self.handles = [p.register_post_accumulate_grad_hook(self._ready) for p in parameters]
        process_group.start_background()

    def prepare_for_backward(self, outputs: Any) -> None:
        """Expect one backward: every bucket waits for its parameters' gradients."""
        if self.active and self.pending_total() < len(self.place):
            raise RuntimeError(_UNFINISHED)
        self.active, self.works, self.used = True, [], None
        self.pending = {b.index(): len(b._parameters) for b in self.buckets}
        if self.find_unused:
            self.used = _reached_parameters(outputs)
            for parameter_id in list(self.place):
                if parameter_id not in self.used:
                    self._mark(parameter_id)

    def pending_total(self) -> int:
        return sum(self.pending.values())

    def _ready(self, parameter: Any) -> None:
        if not self.active:
            return
        bucket, i = self.place[id(parameter)]
        with torch.no_grad():
            if parameter.grad is not None and parameter.grad.data_ptr() != \
                    bucket.slice(i).data_ptr():
                bucket.slice(i).copy_(parameter.grad)
        self._mark(id(parameter))

    def _mark(self, parameter_id: int) -> None:
        bucket, i = self.place[parameter_id]
        if parameter_id not in (self.used or {parameter_id}):
            bucket.slice(i).zero_()
        self.pending[bucket.index()] -= 1
        if self.pending[bucket.index()] == 0:
            self.works.append((bucket, self._communicate(bucket)))
            if len(self.works) == len(self.buckets):
                self._finish()

    def _communicate(self, bucket: GradBucket) -> Any:
        """Start the bucket's reduction: the registered hook, else the averaging
        all-reduce (a Future either way)."""
        if self.hook is not None:
            return self.hook(self.state, bucket)
        return start_bucket_average(bucket.buffer(), self.process_group)

    def _finish(self) -> None:
        """Wait for every bucket and write the averaged gradients into the ``.grad``s."""
        self.active = False
        for bucket, started in self.works:
            reduced = started.wait()
            if self.hook is not None and reduced is not None and \
                    reduced.data_ptr() != bucket.buffer().data_ptr():
                bucket.buffer().copy_(reduced)
            self._write_back(bucket)

    def _write_back(self, bucket: GradBucket) -> None:
        with torch.no_grad():
            for i, parameter in enumerate(bucket._parameters):
                if self.used is not None and id(parameter) not in self.used and \
                        parameter.grad is None:
                    continue
                if self.as_view:
                    parameter.grad = bucket.slice(i)
                elif parameter.grad is None:
                    parameter.grad = bucket.slice(i).clone()
                else:
                    parameter.grad.copy_(bucket.slice(i))


def _reached_parameters(outputs: Any) -> set:
    """The ids of the leaf tensors the autograd graph of `outputs` reaches."""
    roots = [t.grad_fn for t in _tensors_in(outputs) if t.grad_fn is not None]
    seen, reached = set(), set()
    while roots:
        node = roots.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        variable = getattr(node, "variable", None)
        if variable is not None:
            reached.add(id(variable))
        roots.extend(next_node for next_node, _ in node.next_functions)
    return reached


def _tensors_in(value: Any) -> list:
    if isinstance(value, torch.Tensor):
        return [value]
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, (list, tuple)):
        return [t for item in value for t in _tensors_in(item)]
    return []
