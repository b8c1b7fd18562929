"""Dispatch keys: the layers an operator call walks through, highest first.

A key set is a plain int with one bit per key. Every tensor carries the key set of
its device (plus `Autograd` when it requires grad, `Python` when its class overrides
dispatch); a call's key set is the union over its tensor arguments, with thread-local
keys included (modes) or excluded (`no_grad` excludes Autograd). The
dispatcher runs the kernel of the highest key present, and that kernel hands on to
the keys below it. See docs/architecture.md, "Dispatch".
"""
from __future__ import annotations

import enum
import threading


class DispatchKey(enum.IntFlag):
    """The keys, one bit each; `DISPATCH_ORDER` says which a call visits first.

    The order is torch's: autograd records first, then view/version bookkeeping,
    then Python dispatch modes (which so see every call after autograd and as the
    backend would), then the backend. `__torch_function__` is not a dispatch key:
    it acts earlier, in the Python bindings. `Inference` (glasstorch's way of keeping
    torch's inference-mode rules) comes first: it is present while `inference_mode`
    is on and on the tensors made there. `ForwardAD` (glasstorch's too) is on tensors
    carrying a forward-mode tangent: torch computes tangents inside its autograd
    kernels whatever the grad mode, while `no_grad` here excludes `Autograd`, so this
    key, which `no_grad` leaves alone, reaches the tangent code then.

    `Negative` and `Conjugate` are torch's math bits (Note [Math bits] in
    aten/math_bits.py): a lazy negation / conjugation carried by a view. `AutocastCPU`
    (Note [Autocast as a dispatch key] in aten/autocast.py) is thread-local, present
    while CPU autocast is on. `FuncTorchBatched` is on vmap's batched tensors and
    `FuncTorchVmapMode` is thread-local while a vmap runs (it catches random
    factories); both sit under Autograd (Note [vmap under autograd] in
    _functorch/batched_tensor.py). Keys added later took the next free bits, so the order
    is `DISPATCH_ORDER`, not the bits' values.
    """

    CPU = 1
    Meta = 2
    Python = 4
    ADInplaceOrView = 8
    Autograd = 16
    ForwardAD = 32
    Inference = 64
    AutocastCPU = 128
    Conjugate = 256
    Negative = 512
    FuncTorchBatched = 1024
    FuncTorchVmapMode = 2048


# Highest priority first: the order a call visits the keys.
DISPATCH_ORDER = (DispatchKey.Inference, DispatchKey.AutocastCPU, DispatchKey.ForwardAD,
                  DispatchKey.Autograd, DispatchKey.FuncTorchBatched,
                  DispatchKey.FuncTorchVmapMode, DispatchKey.ADInplaceOrView, DispatchKey.Negative,
                  DispatchKey.Conjugate, DispatchKey.Python, DispatchKey.Meta, DispatchKey.CPU)
# key -> the bits of the keys after it in DISPATCH_ORDER (what a kernel hands on to)
KEYS_BELOW = {key: sum(int(k) for k in DISPATCH_ORDER[i + 1:])
              for i, key in enumerate(DISPATCH_ORDER)}
BACKEND_KEYS = DispatchKey.CPU | DispatchKey.Meta

# The key sets tensors are born with, by device type.
CPU_KEYS = int(DispatchKey.ADInplaceOrView | DispatchKey.CPU)
META_KEYS = int(DispatchKey.ADInplaceOrView | DispatchKey.Meta)
AUTOGRAD = int(DispatchKey.Autograd)
PYTHON = int(DispatchKey.Python)
INFERENCE = int(DispatchKey.Inference)
FORWARD_AD = int(DispatchKey.ForwardAD)
AUTOCAST_CPU = int(DispatchKey.AutocastCPU)
CONJUGATE = int(DispatchKey.Conjugate)
NEGATIVE = int(DispatchKey.Negative)
MATH_BITS = CONJUGATE | NEGATIVE
BATCHED = int(DispatchKey.FuncTorchBatched)
VMAP_MODE = int(DispatchKey.FuncTorchVmapMode)
KEYS_BY_DEVICE_TYPE = {"cpu": CPU_KEYS, "meta": META_KEYS}


class LocalKeys(threading.local):
    """Thread-local adjustments to every call's key set.

    `included` is or-ed in (a dispatch mode adds `Python`); `excluded` is masked out
    (`no_grad` excludes `Autograd`); `observed` is on while an observer watches the
    calls (`dispatch_trace()`, the profiler: Note [Dispatch observers] in
    aten/observers.py). `plain` is True while none of them is in force, so the common
    call checks one attribute. `kept` is the mask of the bits a call's key set keeps
    (all, or all but the excluded), 0 while anything is included or observed: a call
    whose tensors' keys masked by it are `CPU_KEYS` is a plain CPU call (under
    `no_grad` too; Note [Express entries] in aten/fast_paths.py).
    """

    def __init__(self) -> None:
        self.included = 0
        self.excluded = 0
        self.observed = False
        self.plain = True
        self.kept = -1

    def set(self, included: int, excluded: int) -> None:
        self.included = included
        self.excluded = excluded
        self.plain = not (included or excluded or self.observed)
        self.kept = 0 if included or self.observed else ~excluded

    def set_observed(self, on: bool) -> None:
        self.observed = on
        self.set(self.included, self.excluded)


local_keys = LocalKeys()


def keys_text(keyset: int) -> str:
    """Name the keys of a key set, highest first: ``'ADInplaceOrView|CPU'``."""
    return "|".join(k.name for k in DISPATCH_ORDER if keyset & k)
