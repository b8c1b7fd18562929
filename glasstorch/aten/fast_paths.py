"""Fast paths: kernel variants for the common case, and the express entries built on them.

Note [Fast paths]
The general kernels handle every case torch does (any layout, dtype, broadcasting,
out= of another dtype), and for small tensors their bookkeeping is most of the cost. A
fast path is a second kernel for one backend key that does the common case directly:
elementwise operators on row-major operands of one dtype (`pointwise.py`), a view made
and noted in one step (`registry.py`), `sum` of a whole float tensor, `clone` of a
row-major one. Whether it applies is decided by the call's arguments alone; when they
are not its case it returns None and the general kernel runs, so both give the same
result, bit for bit (tests/aten/test_fast_path_kernels.py holds each to its general
kernel, tests/opinfo's test_fast_paths every sample). A *fused* fast path also does
ADInplaceOrView's job (a view's bookkeeping, an in-place write's version bump), so it
applies only when ADInplaceOrView is in the key set and no kernel would run but its and
the backend's: keys above that fall through for the operator (AutocastCPU, for those
autocast leaves alone) are no obstacle, keys below it (a math bit, Python) are. Fast
paths are registered like kernels (`register_fast_path`), printed with the operator,
and named in `dispatch_trace()` when they run; ``dispatch_trace(fast_paths=False)``
runs, and shows, the general kernels instead. (The optimizers' float32 steps are
operators of their own, `aten/native/optim/steps.py`, which the optimizers call as
torch's call their fused kernels.)

Note [Express entries]
A call on plain CPU tensors (no autograd, no Python key, no math bit) with nothing in
force on the thread (no mode, no observer) always reaches the same place: the CPU key's
fast path, tried before the kernel. For an elementwise operator the entry's frame, its
key set and its cache look-up are then a third of the call. So when the CPU fast path
offers an `express` variant, the overload's `call` is that variant itself: it checks
that the call is such a call (each tensor's keys, less those the thread excludes, are
`CPU_KEYS`, and nothing is included or observed: `local_keys.kept`), computes it, and
hands anything else to the general entry. Under `no_grad` a tensor that requires grad
takes it too (a backward formula's saved input), as the general entry would reach the
same fast path. Registering a kernel or fast path rebuilds `call`; an express entry a
binding kept from before stops serving (its `live` flag) and hands every call on.
Python's operators on tensors (``a + b``: `_python_ops.py`) are express entries
themselves, handing what they do not serve to the operator's method.
"""
from __future__ import annotations


class FastPath:
    """A kernel variant for the common case at one backend key (Note [Fast paths]).

    `kernel(*args)` returns the result, or None when the arguments are not its case. A
    fast path that never declines (`always`, a view's) is the kernel itself:
    ``kernel(op, keyset, args)``. A `fused` one does ADInplaceOrView's job as well.
    `label` names it in traces and in `repr(op)`. `express`, if given, makes the
    overload's express entry: ``express(general_entry, live) -> call(*args)`` (Note
    [Express entries]).
    """

    __slots__ = ("kernel", "label", "module", "fused", "always", "express")

    def __init__(self, kernel, label: str, module: str, *, fused: bool = False,
                 always: bool = False, express=None) -> None:
        self.kernel = kernel
        self.label = label
        self.module = module
        self.fused = fused
        self.always = always
        self.express = express

    def __repr__(self) -> str:
        return f"FastPath({self.label!r})"
