"""DistributedDataParallel: one replica of a module per process, kept identical by
averaging gradients across the processes during backward (Note [Gradient buckets] in
reducer.py)."""
from __future__ import annotations

import contextlib
from typing import Any, Callable, Iterator

import glasstorch as torch

from ..modules.module import Module


class DistributedDataParallel(Module):
    """Wrap `module` so that each process trains it on its share of the data and every
    process ends each backward with the same, averaged gradients.

    At construction the parameters and buffers are copied from rank 0 to every rank.
    Each backward all-reduces the gradients in buckets while it runs; `no_sync()` (or
    ``require_backward_grad_sync = False``) skips that and lets gradients accumulate
    locally until the next synchronised backward.

    Args:
        module (Module): the module to replicate.
        process_group (ProcessGroup, optional): the ranks to average over (default: all).
        bucket_cap_mb (float, optional): the size of a gradient bucket (default 25).
        broadcast_buffers (bool): copy rank 0's buffers to every rank at each forward.
        find_unused_parameters (bool): find, after each forward, the parameters the
            output does not depend on, so that backward does not wait for them.
        gradient_as_bucket_view (bool): make the ``.grad``s views of the buckets (no copy).
        static_graph (bool): the graph is the same at every iteration (accepted).
        init_sync (bool): copy rank 0's parameters and buffers at construction.

    Example::

        >>> dist.init_process_group("gloo")      # under python -m torch.distributed.run
        >>> model = DistributedDataParallel(nn.Linear(4, 2))
        >>> model(torch.randn(8, 4)).sum().backward()  # grads averaged over the ranks
    """

    def __init__(self, module: Module, device_ids: Any = None, output_device: Any = None,
                 dim: int = 0, broadcast_buffers: bool = True, init_sync: bool = True,
                 process_group: Any = None, bucket_cap_mb: float | None = None,
                 find_unused_parameters: bool = False, check_reduction: bool = False,
                 gradient_as_bucket_view: bool = False, static_graph: bool = False,
                 **other_options: Any) -> None:
        super().__init__()
        # torch.distributed loads here, not at `import torch.nn` (it is a large package)
        from .reducer import Reducer
        self.process_group = process_group or torch.distributed._get_default_group()
        parameters = [p for p in module.parameters() if p.requires_grad]
        if not parameters:
            raise RuntimeError("DistributedDataParallel is not needed when a module doesn't "
                               "have any parameter that requires a gradient.")
        self.module, self.device_ids, self.dim = module, device_ids, dim
        self.broadcast_buffers, self.find_unused_parameters = broadcast_buffers, \
            find_unused_parameters
        self.gradient_as_bucket_view, self.static_graph = gradient_as_bucket_view, static_graph
        self.require_backward_grad_sync = self.require_forward_param_sync = True
        self.bucket_bytes_cap = int((25 if bucket_cap_mb is None else bucket_cap_mb) * 2**20)
        if init_sync:
            self._broadcast_from_rank_0(list(module.parameters()) + list(module.buffers()))
        self.reducer = Reducer(parameters, self.process_group, self.bucket_bytes_cap,
                               find_unused_parameters, gradient_as_bucket_view)

    def _broadcast_from_rank_0(self, tensors: list) -> None:
        """Copy rank 0's `tensors` to every rank, as one flat broadcast per dtype."""
        by_dtype: dict = {}
        for tensor in tensors:
            by_dtype.setdefault(tensor.dtype, []).append(tensor)
        with torch.no_grad():
            for group in by_dtype.values():
                flat = torch.cat([t.detach().reshape(-1) for t in group])
                torch.distributed.broadcast(flat, 0, group=self.process_group)
                for tensor, part in zip(group, flat.split([t.numel() for t in group])):
                    tensor.copy_(part.view(tensor.shape))

    def forward(self, *inputs: Any, **kwargs: Any) -> Any:
        if self.broadcast_buffers and self.require_forward_param_sync:
            buffers = list(self.module.buffers())
            if buffers:
                self._broadcast_from_rank_0(buffers)
        output = self.module(*inputs, **kwargs)
        if torch.is_grad_enabled() and self.require_backward_grad_sync:
            self.reducer.prepare_for_backward(output)
        return output

    @contextlib.contextmanager
    def no_sync(self) -> Iterator[None]:
        """A context in which backward accumulates gradients locally, unsynchronised;
        the first backward after it averages the accumulated gradients.

        Example::

            >>> with ddp.no_sync():
            ...     ddp(first_half).sum().backward()
            >>> ddp(second_half).sum().backward()   # averages both halves' gradients
        """
        previous, self.require_backward_grad_sync = self.require_backward_grad_sync, False
        try:
            yield
        finally:
            self.require_backward_grad_sync = previous

    def register_comm_hook(self, state: Any, hook: Callable) -> None:
        """Reduce each bucket with ``hook(state, bucket)``, which returns a Future of the
        reduced bucket (see torch.distributed.algorithms.ddp_comm_hooks)."""
        if self.reducer.hook is not None:
            raise RuntimeError("register_comm_hook or register_builtin_comm_hook can only be "
                               "called once.")
        self.reducer.hook, self.reducer.state = hook, state

    def _set_static_graph(self) -> None:
        """Declare the graph the same at every iteration (accepted, as torch has it)."""
        self.static_graph = True
