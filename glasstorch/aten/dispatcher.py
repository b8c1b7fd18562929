"""The dispatcher: operator overloads, their kernel tables, and the walk over keys.

Every operator overload (`aten::add.Tensor`) is an `OpOverload` holding one kernel
per dispatch key. A call computes its key set from its tensor arguments (see
`c10/dispatch_key.py`) and runs the kernel of the highest key present. Kernels
registered as `FALLTHROUGH` are skipped, exactly as ATen's fallthrough kernels are:
a key with nothing to do for an operator costs nothing. Every kernel has the
signature ``kernel(op, keyset, args)`` and hands on with
``op.redispatch(keyset_below, args)``.

The first non-fallthrough kernel for each key set is cached per operator, so the
common call is: union the tensors' key bits, one dict lookup, one call.

A key's kernel may have a fast path (Note [Fast paths] in fast_paths.py): a variant for
the common case, tried first, that declines (returns None) when the arguments are not
its case; an overload's `call` may be its CPU fast path itself (Note [Express entries]).

`torch.ops.aten.<name>.<overload>` gives the `OpOverload`; printing it shows the
schema and the kernel behind every key, fast paths included. `dispatch_trace()` records
the keys and kernels each call visits, for teaching and debugging; it and the profiler
are observers of the calls (Note [Dispatch observers] in observers.py).
"""
from __future__ import annotations

import builtins
import functools
import types

from ..c10.device import BACKEND_NAMES, get_default_device, lazy_init_device
from ..c10.dispatch_key import (BACKEND_KEYS, CPU_KEYS, DISPATCH_ORDER, KEYS_BELOW,
                                KEYS_BY_DEVICE_TYPE, DispatchKey, keys_text, local_keys)
from ..c10.tensor_impl import TensorBase
from .fast_paths import FastPath
from .observers import active_observers
from .schema import FunctionSchema, SchemaKind


class _Fallthrough:
    """Marks a key an operator passes straight through."""

    __name__ = "fallthrough"

    def __repr__(self) -> str:
        return "fallthrough"


FALLTHROUGH = _Fallthrough()


_AD_INPLACE_OR_VIEW = int(DispatchKey.ADInplaceOrView)
_BELOW_AD_INPLACE_OR_VIEW = KEYS_BELOW[DispatchKey.ADInplaceOrView]
_BACKEND_BITS = int(BACKEND_KEYS)
_CPU = int(DispatchKey.CPU)


class OpOverload:
    """One operator overload: its schema, its kernels by key, and its call entry.

    Calling it runs the dispatcher: ``torch.ops.aten.add.Tensor(x, y)``. Arguments are
    positional, in schema order (the Python bindings in `binding.py` turn torch-style
    calls into this form).
    """

    def __init__(self, schema: FunctionSchema, packet: "OpOverloadPacket") -> None:
        self._schema = schema
        self.name = schema.qualified_name
        self.namespace = packet._namespace              # "aten", or a library's (mylib)
        self.event_name = f"{self.namespace}::{schema.name}"   # what observers name its calls
        self.overloadpacket = packet
        self.kernels: dict = {}
        self._cache: dict = {}
        self.tensor_args = tuple(i for i, a in enumerate(schema.arguments)
                                 if a.type.base == "Tensor")
        # the written arguments it returns (self, out): torch bumps their versions, not a
        # buffer written on the side (rrelu_with_noise's noise, in no alias set returned);
        # an operator returning nothing (an optimizer step) bumps everything it writes
        returned = {s for r in schema.returns if r.alias is not None for s in r.alias.before}
        self.written_args = tuple(i for i, a in enumerate(schema.arguments) if a.is_write and (
            not schema.returns or returned.intersection(a.alias.before)))
        self._keyset = _keyset_function(schema)
        self._keys_expression = _INLINE_KEYS.get(self._keyset, "keyset_of(args)")
        self.declaration = None          # the record `registry.py` made this overload from
        self.fast_paths: dict = {}       # backend key (int) -> FastPath
        self._live = [False]             # whether the express entry made last still holds
        # `call` runs a call: the general entry, or an express entry in front of it
        self.general_entry = self._make_entry()
        self.call = self.general_entry

    @property
    def _schema_text(self) -> str:
        return str(self._schema)

    @property
    def kind(self) -> SchemaKind:
        return self._schema.kind

    def register(self, key: DispatchKey, kernel) -> None:
        """Install `kernel` for `key` (replacing any earlier one) and reset the cache.

        A fast path is a variant of its key's kernel: replacing the kernel drops it.
        """
        self.kernels[key] = kernel
        self.fast_paths.pop(int(key), None)
        self._cache.clear()
        self._install_entry()

    def accept_numbers(self, positions: tuple) -> None:
        """Let Python numbers stand where the schema says Tensor (torch's wrapped numbers).

        Only tensors contribute keys; a call made of numbers alone runs on the default
        device.
        """
        name = self.name
        others = tuple(i for i in self.tensor_args if i not in positions)   # out= tensors

        def keyset(args):
            keys = 0
            for i in positions:
                value = args[i]
                if isinstance(value, TensorBase):
                    keys |= value._keys
            for i in others:
                if args[i] is not None:
                    keys |= args[i]._keys
            return keys or _keys_of_device(None, name)

        self._keyset = keyset
        # the common unary and binary cases are written into the entry
        self._keys_expression = _KEYS_OF_OPERANDS.get(positions, "keyset_of(args)") \
            if not others else "keyset_of(args)"
        self.general_entry = self._make_entry()
        self._install_entry()

    def register_fast_path(self, key: DispatchKey, fast: FastPath) -> None:
        """Install `fast` as the fast path of the backend `key` (Note [Fast paths] in
        fast_paths.py)."""
        self.fast_paths[int(key)] = fast
        self._cache.clear()
        self._install_entry()

    def _install_entry(self) -> None:
        """Make `call` the express entry of the CPU fast path when it has one that a
        plain CPU call would reach, else the general entry (Note [Express entries] in
        fast_paths.py).
        An express entry made before stops serving (`live`): a binding may hold it."""
        self._live[0] = False
        self._live = [True]
        fast = self.fast_paths.get(_CPU)
        express = None
        if fast is not None and fast.express is not None:
            try:
                key = self._first_kernel(CPU_KEYS)[0]
            except RuntimeError:                # no kernel yet
                key = None
            if key is not None and self._fast_path(CPU_KEYS, key) is fast:
                express = fast.express(self.general_entry, self._live)
        self.call = express if express is not None else self.general_entry

    def express_entry(self, general):
        """Another express entry of this overload, handing what it does not serve to
        `general` (a Python operator's method: ``Tensor.__add__``); None when `call` is
        not an express entry (Note [Express entries] in fast_paths.py)."""
        if self.call is self.general_entry:
            return None
        return self.fast_paths[_CPU].express(general, self._live)

    def __call__(self, *args, **kwargs):
        """The public entry: arguments are bound and type-checked against the schema.

        Operators written in other operators use `op.call(*all_args)` instead: the
        same dispatch without binding, for arguments already known to be right.
        """
        from .binding import call_overload
        return call_overload(self, args, kwargs)

    def _make_entry(self):
        """The dispatcher entry of this overload, as a function over its tables.

        `op.call(*args)` is what `op(*args)` does; bindings and hot internal paths use
        it directly to skip the method call. Steps: the key set of the tensor
        arguments, adjusted by thread-local keys when any are in force; then the
        cached (kernel, keys below, fast path) for that key set; the fast path, when
        there is one, is tried first and the kernel runs when it declines. For the
        common schemas the key set is an expression written into the entry itself
        (`_ENTRY_SOURCE`): one Python frame per call, not two.
        """
        names = {"op": self, "cache": self._cache, "keyset_of": self._keyset,
                 "lookup": self._lookup, "local_keys": local_keys, "TensorBase": TensorBase,
                 "_observed_dispatch": _observed_dispatch, "_keys_of_device": _keys_of_device,
                 "__builtins__": builtins}
        return types.FunctionType(_entry_code(self._keys_expression), names, "call")

    def redispatch(self, keyset: int, args: tuple):
        """Hand a call on to the keys in `keyset` (the caller removed its own and higher)."""
        if local_keys.observed:
            return _observed_dispatch(self, keyset, args, False)
        try:
            kernel, below, fast = self._cache[keyset]
        except KeyError:
            kernel, below, fast = self._lookup(keyset)
        if fast is not None:
            result = fast(*args)
            if result is not None:
                return result
        return kernel(self, below, args)

    def _lookup(self, keyset: int) -> tuple:
        """Find (kernel, keys below it, fast path or None) for a key set, and cache it.

        A fast path that applies to the key set is tried first, and the general kernel
        runs when it declines; one that never declines is cached as the kernel itself
        (a view made and noted in one call).
        """
        key, kernel = self._first_kernel(keyset)
        below = keyset & KEYS_BELOW[key]                                # keys under `key`
        fast = self._fast_path(keyset, key)
        if fast is None:
            entry = (kernel, below, None)
        elif fast.always:
            entry = (fast.kernel, below, None)
        else:
            entry = (kernel, below, fast.kernel)
        self._cache[keyset] = entry
        return entry

    def _fast_path(self, keyset: int, key: DispatchKey):
        """The fast path that applies to a call with `keyset` whose first kernel is at
        `key`, or None: the backend's own, or its fused one when no kernel runs but
        ADInplaceOrView's and the backend's (the keys above fall through for this
        operator, as AutocastCPU does for the operators autocast leaves alone)."""
        if not self.fast_paths:
            return None
        backend = keyset & _BACKEND_BITS
        fast = self.fast_paths.get(backend)
        if fast is None:
            return None
        if fast.fused:              # it does ADInplaceOrView's work: that key must be in
            return fast if keyset & _AD_INPLACE_OR_VIEW and key in (_AD_INPLACE_OR_VIEW, backend) \
                and keyset & _BELOW_AD_INPLACE_OR_VIEW == backend else None
        return fast if key == backend else None

    def _first_kernel(self, keyset: int):
        for key in DISPATCH_ORDER:
            if keyset & key:
                kernel = self.kernels.get(key)
                if kernel is None:
                    kernel = _missing_kernel(self, key)
                if kernel is not FALLTHROUGH:
                    return key, kernel
        raise RuntimeError(f"{self.name}: no kernel for key set {keys_text(keyset) or 'empty'}")

    def __repr__(self) -> str:
        lines = [f"{self.namespace}::{self._schema}"]
        for key in DISPATCH_ORDER:
            kernel = self.kernels.get(key)
            if kernel is not None:
                lines.append(f"  {key.name:<17} {_kernel_label(kernel)}")
            fast = self.fast_paths.get(int(key))
            if fast is not None:
                lines.append(f"    {'fast path':<15} {_kernel_label(fast)}")
        return "\n".join(lines)


# Kernels serving one key for every operator without its own (torch's `registerFallback`),
# installed by the layer that owns the key: autograd installs the Inference key's. Install
# them at import, before any call carries their key (a kernel found is cached).
FALLBACKS: dict = {}


def register_fallback(key: DispatchKey, kernel) -> None:
    """Serve `key` with `kernel` for every operator that has no kernel of its own for it."""
    FALLBACKS[key] = kernel


def _missing_kernel(op: OpOverload, key: DispatchKey):
    if key is DispatchKey.Python:
        from .python_dispatch import python_fallback
        return python_fallback
    if key in (DispatchKey.Autograd, DispatchKey.ForwardAD, DispatchKey.ADInplaceOrView,
               DispatchKey.AutocastCPU):
        return FALLTHROUGH
    fallback = FALLBACKS.get(key)
    if fallback is not None:
        return fallback

    def not_implemented(op, keyset, args):
        raise NotImplementedError(
            f"Could not run '{op.namespace}::{op.name}' with arguments from the '{key.name}' "
            f"backend.")
    return not_implemented


def _kernel_label(kernel) -> str:
    if kernel is FALLTHROUGH:
        return "fallthrough"
    if type(kernel) is FastPath:
        return f"{kernel.label}  ({kernel.module})"
    name = getattr(kernel, "__qualname__", None) or getattr(kernel, "__name__", repr(kernel))
    module = getattr(kernel, "__module__", "") or ""
    return f"{name}  ({module})" if module else name


def _keyset_function(schema: FunctionSchema):
    """Build `args -> union of tensor key bits` specialised to the schema's tensor arguments."""
    plain, optional, lists = [], [], []
    for i, a in enumerate(schema.arguments):
        if a.type.base != "Tensor":
            continue
        if a.type.is_list:
            lists.append(i)
        elif a.type.optional:
            optional.append(i)
        else:
            plain.append(i)
    device_index = next((i for i, a in enumerate(schema.arguments) if a.name == "device"
                         and a.type.base == "Device"), None)
    if plain == [0] and not optional and not lists:
        return _keys_of_first
    if len(plain) == 2 and plain[0] == 0 and plain[1] == 1 and not optional and not lists:
        return _keys_of_first_two

    name = schema.qualified_name

    def keyset(args):
        keys = 0
        for i in plain:
            keys |= args[i]._keys
        for i in optional:
            t = args[i]
            if t is not None:
                keys |= t._keys
        for i in lists:
            for t in args[i]:
                if t is not None:
                    keys |= t._keys
        if not keys:
            keys = _keys_of_device(args[device_index] if device_index is not None else None,
                                   name)
        return keys
    return keyset


def _keys_of_first(args) -> int:
    return args[0]._keys


def _keys_of_first_two(args) -> int:
    return args[0]._keys | args[1]._keys


# The key-set functions of the common schemas, as expressions of `args` for the entry
_INLINE_KEYS = {_keys_of_first: "args[0]._keys",
                _keys_of_first_two: "args[0]._keys | args[1]._keys"}
# an elementwise operator's operands, any of which may be a Python number (`accept_numbers`)
_KEYS_OF_OPERANDS = {
    (0,): "(args[0]._keys if isinstance(args[0], TensorBase) else 0) "
          "or _keys_of_device(None, op.name)",
    (0, 1): "(args[0]._keys if isinstance(args[0], TensorBase) else 0) | "
            "(args[1]._keys if isinstance(args[1], TensorBase) else 0) "
            "or _keys_of_device(None, op.name)"}

@functools.cache
def _entry_code(keys: str):
    """The compiled entry for one key-set expression, shared by every overload using it
    (each gets its own globals: its tables)."""
    namespace: dict = {}
    exec(compile(_ENTRY_SOURCE.format(keys=keys), "<dispatcher entry>", "exec"), namespace)
    return namespace["call"].__code__


_ENTRY_SOURCE = """
def call(*args):
    keyset = {keys}
    if not local_keys.plain:
        keyset = (keyset | local_keys.included) & ~local_keys.excluded
        if local_keys.observed:
            return _observed_dispatch(op, keyset, args, True)
    try:
        kernel, below, fast = cache[keyset]
    except KeyError:
        kernel, below, fast = lookup(keyset)
    if fast is not None:
        result = fast(*args)
        if result is not None:
            return result
    return kernel(op, below, args)
"""


def _keys_of_device(device, name: str) -> int:
    """The keys of a call whose only tensor is the one it makes on `device` (a factory
    named `name`); a device this build lacks is refused (Note [Devices this build lacks])."""
    dev = device if device is not None else get_default_device()
    try:
        return KEYS_BY_DEVICE_TYPE[dev.type]
    except KeyError:
        lazy_init_device(dev)
        backend = BACKEND_NAMES.get(dev.type, dev.type)
        raise NotImplementedError(
            f"Could not run 'aten::{name}' with arguments from the '{backend}' backend. This "
            f"could be because the operator doesn't exist for this backend, or was omitted "
            f"during the selective/custom build process (if using custom build).") from None


class OpOverloadPacket:
    """All overloads of one operator name: ``torch.ops.aten.add`` holds ``.Tensor``, ``.out``..."""

    def __init__(self, name: str, namespace: str = "aten") -> None:
        self._name = name
        self._namespace = namespace
        self._overloads: dict = {}

    def __getattr__(self, overload: str) -> OpOverload:
        overloads = self.__dict__.get("_overloads", {})
        key = "" if overload == "default" else overload
        if key in overloads:
            return overloads[key]
        if self.__dict__.get("_namespace") == "aten" and \
                _load_expected(self.__dict__.get("_name")) and key in overloads:
            return overloads[key]
        raise AttributeError(f"The underlying op of '{self._namespace}.{self._name}' has no "
                             f"overload name '{overload}'")

    def overloads(self) -> list:
        return [name or "default" for name in self._overloads]

    def __call__(self, *args, **kwargs):
        from .binding import call_packet
        return call_packet(self, args, kwargs)

    def __repr__(self) -> str:
        return "\n\n".join(repr(o) for o in self._overloads.values())


class _Namespace:
    """`torch.ops.aten` (or a library's namespace, `torch.ops.mylib`): operator packets
    by name."""

    def __init__(self, name: str) -> None:
        self._ns_name = name
        self._packets: dict = {}

    def __getattr__(self, name: str) -> OpOverloadPacket:
        packets = self.__dict__.get("_packets", {})
        if self._ns_name == "aten":
            _load_expected(name)            # every overload of the name, before any use
        if name in packets:
            return packets[name]
        raise AttributeError(f"'_OpNamespace' '{self._ns_name}' object has no attribute "
                             f"'{name}'")

    def __dir__(self):
        _LOADERS[1]()
        return sorted(self._packets)

    def __iter__(self):
        _LOADERS[1]()
        return iter(list(self._packets.values()))


_EXPECTED: dict = {}       # aten name -> families not loaded yet that declare overloads of it
_INDEXED: set = set()      # every aten name the index lists, loaded or not
_LOADERS: list = [None, lambda: None]      # load(family), load_all()


def expect(index: dict, load, load_all) -> None:
    """Note operators that families not loaded yet declare (Note [Families load on
    first use] in aten/native/__init__.py): `index` maps aten names to families."""
    _LOADERS[:] = [load, load_all]
    _EXPECTED.update(index)
    _INDEXED.update(index)


def has_operator(name: str) -> bool:
    """Whether ``torch.ops.aten.<name>`` exists, declared already or by a family the
    index lists (nothing is loaded)."""
    return name in ops.aten._packets or name in _INDEXED


def _load_expected(name) -> bool:
    """Load the families still expected to declare overloads of `name`; whether any."""
    families = _EXPECTED.pop(name, ())
    for family in families:
        _LOADERS[0](family)
    return bool(families)


class _Ops:
    """`torch.ops`: namespaces of operators: `aten`, and those torch.library defines
    into (any other name is an empty namespace until a library defines in it, as in
    torch)."""

    def __init__(self) -> None:
        self.aten = _Namespace("aten")

    def __getattr__(self, name: str) -> _Namespace:
        if name.startswith("__"):
            raise AttributeError(name)
        namespace = _Namespace(name)
        setattr(self, name, namespace)
        return namespace


ops = _Ops()


@functools.cache
def operator_entry(name: str, overload: str):
    """`ops.aten.<name>.<overload>.call`, looked up once: for the operator calls code
    makes per backward node (the engine's accumulation, `sum_to`), and the operators
    are declared after the modules that call them are imported."""
    return getattr(getattr(ops.aten, name), overload).call


def find_overload(namespace: str, name: str, overload_name: str = ""):
    """``torch.ops.<namespace>.<name>.<overload>`` if it exists (nothing is loaded), else None."""
    packet = getattr(ops, namespace)._packets.get(name)
    return None if packet is None else packet._overloads.get(overload_name)


def get_overload(schema: FunctionSchema, namespace: str = "aten") -> OpOverload:
    """The overload for `schema` in `namespace`, created (with its packet) on first request."""
    packets = getattr(ops, namespace)._packets
    packet = packets.get(schema.name)
    if packet is None:
        packet = packets[schema.name] = OpOverloadPacket(schema.name, namespace)
    overload = packet._overloads.get(schema.overload_name)
    if overload is None:
        overload = packet._overloads[schema.overload_name] = OpOverload(schema, packet)
    return overload


# ----------------------------------------------------------------------------------
# Observed calls (Note [Dispatch observers] in observers.py)
# ----------------------------------------------------------------------------------
def _observed_dispatch(op: OpOverload, keyset: int, args: tuple, entry: bool):
    """Dispatch like `OpOverload.call` while observers are on.

    A fresh call (`entry`) is announced to every observer, and its end too, however it
    ends; a redispatch of the same call is not a new call. The kernels run as usual
    unless an observer wants each step named.
    """
    observers = active_observers()
    tokens = [(o, o.enter(op, op.event_name, args, keyset)) for o in observers] if entry else ()
    try:
        steppers = [o for o in observers if o.wants_steps]
        if steppers:
            return _stepped_dispatch(op, keyset, args, steppers)
        try:
            kernel, below, fast = op._cache[keyset]
        except KeyError:
            kernel, below, fast = op._lookup(keyset)
        if fast is not None:
            result = fast(*args)
            if result is not None:
                return result
        return kernel(op, below, args)
    finally:
        for observer, token in reversed(tokens):
            observer.exit(token)


def _stepped_dispatch(op: OpOverload, keyset: int, args: tuple, steppers: list):
    """Walk the keys of one call, telling `steppers` each key passed and the kernel
    (or fast path, under both keys for a fused one) that ran."""
    def step(keys, label):
        for observer in steppers:
            observer.step(op, keyset, keys, label)
    key, kernel = op._first_kernel(keyset)
    use_fast = all(o.fast_paths for o in steppers)
    fast = op._fast_path(keyset, key) if use_fast else None
    for skipped in DISPATCH_ORDER:
        if skipped is key:
            break
        if keyset & skipped:
            step(skipped.name, "fallthrough")
    below = keyset & KEYS_BELOW[key]
    if fast is not None:
        keys = keys_text(keyset) if fast.fused else key.name
        if fast.always:
            step(keys, _kernel_label(fast))
            return fast.kernel(op, below, args)
        result = fast.kernel(*args)
        if result is not None:
            step(keys, _kernel_label(fast))
            return result
    step(key.name, _kernel_label(kernel))
    return kernel(op, below, args)


def is_tensor(value) -> bool:
    return isinstance(value, TensorBase)
