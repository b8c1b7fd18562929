"""The per-sample fallback, and randomness under vmap.

An operator without a batching rule runs once per sample, its results stacked (torch's
BatchedFallback, with its warning when `set_vmap_fallback_warning_enabled(True)`): slow
but right for any operator whose samples are independent. The operators that used it
are noted in `FALLBACK_OPS` (the op_db conformance reports the count).

Note [Randomness under vmap]
    A random operator under vmap follows the vmap's `randomness`: "error" refuses it;
    "different" draws independently for every sample (a rule on the batch-in-front
    values draws the whole batch at once; a factory, which has no batched argument and
    so reaches only the thread-local FuncTorchVmapMode key, runs once per sample);
    "same" draws once for all samples (a factory runs once, unbatched; an operator of
    batched tensors runs per sample with the generator rewound before each, so every
    sample gets the same draws). While a rule runs the key is excluded, so the calls it
    makes on the values are not taken for new factory calls.
"""
from __future__ import annotations

import warnings

from ..aten.dispatcher import OpOverload, operator_entry
from ..aten.schema import SchemaKind
from ..c10.dispatch_key import VMAP_MODE, local_keys
from ..c10.generator import default_generator
from ..c10.tensor_impl import TensorBase
from .batched_tensor import CONTROL_FLOW, batch_level, levels, wrap

FALLBACK_OPS: set = set()        # qualified names of the operators that ran per sample
_WARN = [False]
# random operators whose schemas take no generator
_RANDOM_NAMES = frozenset({"native_dropout", "dropout", "rrelu", "rrelu_with_noise", "rand_like",
                           "randn_like", "randint_like"})
RANDOM_ERROR = ("vmap: called random operation while in randomness error mode. Please either "
                "use the 'same' or 'different' randomness flags on vmap or perform the "
                "randomness operation out of vmap")
DIFFERENT_INPLACE = ("vmap: Cannot ask for different inplace randomness on an unbatched "
                     "tensor. This will appear like same randomness. If this is necessary for "
                     "your usage, please file an issue with functorch.")


def set_vmap_fallback_warning_enabled(enabled: bool) -> None:
    """Warn (or stop warning) each time an operator runs the per-sample fallback."""
    _WARN[0] = bool(enabled)


def is_vmap_fallback_warning_enabled() -> bool:
    return _WARN[0]


def per_sample(op: OpOverload, entry, args: tuple):
    """Run `op` once per sample of `entry`'s level and stack the results."""
    FALLBACK_OPS.add(op.name)
    if _WARN[0]:
        warnings.warn(f"There is a performance drop because we have not yet implemented the "
                      f"batching rule for {op.namespace}::{op.name}. Please file us an issue "
                      f"on GitHub so that we can prioritize its implementation.", UserWarning,
                      stacklevel=2)
    level = entry.level
    _refuse_unbatched_writes(op, args, level)
    results = [op.call(*[_sample(a, level, b) for a in args]) for b in range(entry.batch_size)]
    if op.kind is SchemaKind.inplace:
        return args[0]
    if op.kind is SchemaKind.out:
        written = [args[i] for i in op.written_args]
        return written[0] if len(written) == 1 else tuple(written)
    return _stacked(results, level)


def _refuse_unbatched_writes(op: OpOverload, args: tuple, level: int) -> None:
    if not op.written_args:
        return
    if any(batch_level(args[i]) != level for i in op.written_args):
        refuse_inplace()


def refuse_inplace() -> None:
    """torch's error for an in-place write of a batched value into an unbatched self
    (its words are the same for every operator)."""
    raise RuntimeError(
        "vmap: inplace arithmetic(self, *extra_args) is not possible because there exists a "
        "Tensor `other` in extra_args that has more elements than `self`. This happened due "
        "to `other` being vmapped over but `self` not being vmapped over in a vmap. Please "
        "try to use out-of-place operators instead of inplace arithmetic. If said operator "
        "is being called inside the PyTorch framework, please file a bug report instead.")


def _sample(value, level: int, index: int):
    if batch_level(value) == level:
        return operator_entry("select", "int")(value._value, value._bdim, index)
    if isinstance(value, (list, tuple)) and any(batch_level(v) == level for v in value):
        return [_sample(v, level, index) for v in value]
    return value


def _stacked(results: list, level: int):
    first = results[0]
    if isinstance(first, TensorBase):
        return wrap(operator_entry("stack", "default")(results, 0), level)
    if isinstance(first, (tuple, list)):
        return type(first)([_stacked([r[i] for r in results], level)
                            for i in range(len(first))])
    if all(r == first for r in results):
        return first
    raise RuntimeError(CONTROL_FLOW)


# ----------------------------------------------------------------------------------
# Randomness (Note [Randomness under vmap])
# ----------------------------------------------------------------------------------
def is_random(op: OpOverload) -> bool:
    """Whether `op` draws random numbers (its schema takes a generator, or it is one of
    the few random operators whose schemas do not; `rand` is random because
    `rand.generator` is)."""
    found = _RANDOM.get(op)
    if found is None:
        found = _RANDOM[op] = op._schema.name.rstrip("_") in _RANDOM_NAMES or any(
            a.type.base == "Generator" for overload in op.overloadpacket._overloads.values()
            for a in overload._schema.arguments)
    return found


_RANDOM: dict = {}           # OpOverload -> whether it is random


def _generator(op: OpOverload, args: tuple):
    for a, value in zip(op._schema.arguments, args):
        if a.type.base == "Generator" and value is not None:
            return value
    return default_generator


class _RuleRunning:
    """Excludes the vmap-mode key while a rule makes its calls on the values."""

    def __enter__(self):
        self.included = local_keys.included
        local_keys.set(self.included & ~VMAP_MODE, local_keys.excluded)

    def __exit__(self, *exc):
        local_keys.set(self.included, local_keys.excluded)


def random_rule(rule):
    """The batching rule of a random operator: `rule` under the vmap's randomness."""
    def random(op, entry, args):
        if entry.randomness == "error":
            raise RuntimeError(RANDOM_ERROR)
        with _RuleRunning():
            if entry.randomness == "different":
                return (rule or per_sample)(op, entry, args)
            return _same_draws(op, entry, args)
    return random


def _same_draws(op: OpOverload, entry, args: tuple):
    generator = _generator(op, args)
    return per_sample(_Rewinding(op, generator, generator.get_state()), entry, args)


class _Rewinding:
    """`op`, seen by the per-sample loop, with its generator rewound before each call."""

    def __init__(self, op: OpOverload, generator, start) -> None:
        self._op, self._generator, self._start = op, generator, start
        self.name, self.namespace, self.kind = op.name, op.namespace, op.kind
        self.written_args = op.written_args

    def call(self, *args):
        self._generator.set_state(self._start)
        return self._op.call(*args)


def vmap_mode_kernel(op: OpOverload, keyset: int, args: tuple):
    """FuncTorchVmapMode: random operators reaching it hold no batched tensor (a
    factory, or an in-place draw into an unbatched tensor); the rest pass on."""
    if not is_random(op):
        return op.redispatch(keyset, args)
    entry = levels.stack[-1]
    if entry.randomness == "error":
        raise RuntimeError(RANDOM_ERROR)
    if entry.randomness == "different" and op.kind is not SchemaKind.functional:
        raise RuntimeError(DIFFERENT_INPLACE)
    with _RuleRunning():              # the kernel's own calls (uniform_ of its result)
        if entry.randomness == "same":
            return op.redispatch(keyset, args)
        draws = [op.redispatch(keyset, args) for _ in range(entry.batch_size)]
    return _stacked(draws, entry.level)
