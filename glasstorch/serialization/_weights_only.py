"""The weights-only unpickler: a pickle interpreter that can build data, never run code.

Python's unpickler imports any module and calls any function a pickle names, so a
checkpoint could run ``os.system``. This interpreter executes only the opcodes that
describe data (numbers, strings, lists, dicts, tuples, memo references) and looks every
``GLOBAL`` up in an allowlist: tensors' rebuild functions, dtypes, ``torch.Size``,
``torch.device``, ``OrderedDict`` and the few builtins torch's own pickles use, plus what
a user allowlists with `add_safe_globals`. ``REDUCE`` (a call) and ``NEWOBJ`` may only
call allowlisted objects; ``BUILD`` may only set the state of allowlisted types. Any
other opcode, or any other name, is refused with torch's `pickle.UnpicklingError`
message before it has any effect.
"""
from __future__ import annotations

import pickle
import struct
import warnings
from _compat_pickle import IMPORT_MAPPING, NAME_MAPPING
from codecs import encode
from collections import Counter, OrderedDict
from typing import Any, Callable

from ._names import TORCH_NAMES, glasstorch_module
from ._storage_types import STORAGE_TYPES

UnpicklingError = pickle.UnpicklingError
_BLOCKED_MODULES = ("sys", "os", "posix", "nt")
# Note [Allocations a pickle may not size]
#     Some allowlisted classes allocate when called with numbers: ``bytearray(n)``,
#     ``UntypedStorage(n)``, ``TypedStorage(n)``, ``torch.Tensor(n, m)``. torch's own
#     pickles never call them so (bytes arrive encoded, storages as archive records,
#     tensors through the rebuild functions), while a hostile pickle could ask for a
#     terabyte in a few bytes. A weights-only load refuses such calls; everything else
#     these classes do is allowed.
_ALLOCATORS = ("builtins.bytearray", "torch.storage.UntypedStorage",
               "torch.storage.TypedStorage", "torch.Tensor",
               "torch.FloatTensor", "torch.DoubleTensor", "torch.HalfTensor",
               "torch.BFloat16Tensor", "torch.ByteTensor", "torch.CharTensor",
               "torch.ShortTensor", "torch.IntTensor", "torch.LongTensor", "torch.BoolTensor")
_user_globals: set = set()         # what add_safe_globals allowlisted, process-wide as in torch


def add(safe_globals: list) -> None:
    _user_globals.update(safe_globals)


def remove(safe_globals: list) -> None:
    _user_globals.difference_update(safe_globals)


def user_globals() -> list:
    return list(_user_globals)


def clear() -> None:
    _user_globals.clear()


def user_allowed() -> dict[str, Any]:
    """Path -> object for what the user allowlisted (a ``(object, path)`` pair names it)."""
    allowed = {}
    for entry in _user_globals:
        if isinstance(entry, tuple):
            if len(entry) != 2:
                raise ValueError("Expected tuple of length 2 (global, str of callable full "
                                 f"path), but got tuple of length: {len(entry)}")
            if type(entry[1]) is not str:
                raise TypeError("Expected second item in tuple to be str of callable full "
                                f"path, but got: {type(entry[1])}")
            allowed[entry[1]] = entry[0]
        else:
            allowed[f"{entry.__module__}.{entry.__qualname__}"] = entry
    return allowed


def default_allowed() -> dict[str, Any]:
    """torch's default allowlist, path -> glasstorch object."""
    allowed = {"collections.OrderedDict": OrderedDict, "collections.Counter": Counter,
               "_codecs.encode": encode, "builtins.bytearray": bytearray,
               "builtins.set": set, "builtins.complex": complex}
    allowed.update(TORCH_NAMES)
    # old checkpoints of CUDA tensors name the storage types of torch.cuda
    allowed.update((f"torch.cuda.{name}", kind) for name, kind in STORAGE_TYPES.items())
    return allowed


def read_global(readline: Callable) -> tuple[str, str]:
    """The ``(module, name)`` of a GLOBAL opcode, Python 2 names mapped to Python 3's."""
    module = readline()[:-1].decode("utf-8")
    name = readline()[:-1].decode("utf-8")
    if (module, name) in NAME_MAPPING:
        module, name = NAME_MAPPING[(module, name)]
    elif module in IMPORT_MAPPING:
        module = IMPORT_MAPPING[module]
    return module, name


def unsupported_global_message(path: str) -> str:
    if path.startswith("builtins"):          # torch prints builtins without their module
        rest = path[len("builtins"):]
        path = rest[1:] if rest.startswith(".") else "builtins" + rest
    return (f"Unsupported global: GLOBAL {path} was not an allowed global by default. Please "
            f"use `torch.serialization.add_safe_globals([{path}])` or the "
            f"`torch.serialization.safe_globals([{path}])` context manager to allowlist this "
            "global if you trust this class/function.")


class WeightsOnlyUnpickler:
    """Reads one pickle from `file` with the allowlist (see the module's docstring).

    Args:
        file: a binary file object positioned at the pickle.
        encoding (str): how Python 2 byte strings (SHORT_BINSTRING) decode; ``'bytes'``
            keeps them bytes.
    """

    def __init__(self, file, *, encoding: str = "bytes") -> None:
        self.read = file.read
        self.readline = file.readline
        self.encoding = encoding
        self.memo: dict[int, Any] = {}
        self.persistent_load: Callable = _no_persistent_load
        self._allowed = default_allowed()
        self._user = user_allowed()
        # identities, not equality: an object off the stack may compare strangely (a tensor)
        self._allowed_ids = {id(obj) for obj in [*self._allowed.values(), *self._user.values()]}
        self._allocator_ids = {id(self._allowed[path]) for path in _ALLOCATORS}

    def load(self) -> Any:
        """The object the pickle describes."""
        self.stack: list = []
        self.metastack: list = []
        while True:
            key = self.read(1)
            if not key:
                raise EOFError
            handler = _OPCODES.get(key[0])
            if handler is None:
                raise UnpicklingError(f"Unsupported operand {key[0]}")
            if handler is _stop:
                return self.stack.pop()
            handler(self)

    def is_allowed(self, obj) -> bool:
        return id(obj) in self._allowed_ids

    def check_allocation(self, function, args) -> None:
        """Refuse a call that would allocate memory sized by numbers in the pickle (Note
        [Allocations a pickle may not size])."""
        if id(function) in self._allocator_ids and _has_sizes(args):
            raise UnpicklingError(f"Refusing to call {function} with sizes taken from the "
                                  "checkpoint: a checkpoint's data comes from its records")

    def _find(self, module: str, name: str) -> Any:
        path = f"{module}.{name}"
        if module in _BLOCKED_MODULES:
            raise UnpicklingError(f"Trying to load unsupported GLOBAL {path} whose module "
                                  f"{module} is blocked.")
        for table in (self._allowed, self._user):
            if path in table:
                return table[path]
        mirrored = f"{glasstorch_module(module)}.{name}"   # a torch class glasstorch has
        if mirrored in self._user:
            return self._user[mirrored]
        raise UnpicklingError(unsupported_global_message(path))

    def pop_mark(self) -> list:
        items = self.stack
        self.stack = self.metastack.pop()
        return items

    def check_mapping_target(self, opcode: str) -> None:
        if type(self.stack[-1]) not in (dict, OrderedDict, Counter):
            raise UnpicklingError(f"Can only {opcode} for dict, collections.OrderedDict, "
                                  f"collections.Counter, but got {type(self.stack[-1])}")


def _has_sizes(args) -> bool:
    """Whether call arguments hold a number (or a shape) that could size an allocation."""
    for arg in args if isinstance(args, (tuple, list)) else (args,):
        if isinstance(arg, int) and not isinstance(arg, bool):
            return True
        if isinstance(arg, (tuple, list)) and _has_sizes(arg):
            return True
    return False


def _no_persistent_load(pid):
    raise UnpicklingError("unsupported persistent id encountered")


# ----- the opcodes, one small function each ---------------------------------------------
def _global(u: WeightsOnlyUnpickler) -> None:
    u.stack.append(u._find(*read_global(u.readline)))


def _newobj(u: WeightsOnlyUnpickler) -> None:
    args = u.stack.pop()
    cls = u.stack.pop()
    parameter = u._allowed["torch.nn.parameter.Parameter"]
    if cls is parameter:
        u.stack.append(parameter(*args))
    elif u.is_allowed(cls):
        u.check_allocation(cls, args)
        u.stack.append(cls.__new__(cls, *args))
    else:
        raise UnpicklingError("Can only create new object for nn.Parameter or classes "
                              f"allowlisted via `add_safe_globals` but got {cls}")


def _reduce(u: WeightsOnlyUnpickler) -> None:
    args = u.stack.pop()
    function = u.stack[-1]
    if not u.is_allowed(function):
        message = f"Trying to call reduce for unrecognized function {function}"
        if hasattr(function, "__self__"):
            message += f" which belongs to {function.__self__}"
        raise UnpicklingError(message)
    u.check_allocation(function, args)
    u.stack[-1] = function(*args)


def _build(u: WeightsOnlyUnpickler) -> None:
    state = u.stack.pop()
    instance = u.stack[-1]
    kind = type(instance)
    if kind is OrderedDict:
        instance.__dict__.update(state)
    elif u.is_allowed(kind):
        if hasattr(instance, "__setstate__"):
            instance.__setstate__(state)
            return
        slots = None
        if isinstance(state, tuple) and len(state) == 2:
            state, slots = state
        if state:
            instance.__dict__.update(state)
        for name, value in (slots or {}).items():
            setattr(instance, name, value)
    else:
        raise UnpicklingError("Can only build Tensor, Parameter, OrderedDict or types "
                              f"allowlisted via `add_safe_globals`, but got {kind}")


def _append(u: WeightsOnlyUnpickler) -> None:
    item = u.stack.pop()
    if type(u.stack[-1]) is not list:
        raise UnpicklingError(f"Can only append to lists, but got {type(u.stack[-1])}")
    u.stack[-1].append(item)


def _appends(u: WeightsOnlyUnpickler) -> None:
    items = u.pop_mark()
    if type(u.stack[-1]) is not list:
        raise UnpicklingError(f"Can only extend lists, but got {type(u.stack[-1])}")
    u.stack[-1].extend(items)


def _setitem(u: WeightsOnlyUnpickler) -> None:
    value, key = u.stack.pop(), u.stack.pop()
    u.check_mapping_target("SETITEM")
    u.stack[-1][key] = value


def _setitems(u: WeightsOnlyUnpickler) -> None:
    items = u.pop_mark()
    u.check_mapping_target("SETITEMS")
    for i in range(0, len(items), 2):
        u.stack[-1][items[i]] = items[i + 1]


def _mark(u: WeightsOnlyUnpickler) -> None:
    u.metastack.append(u.stack)
    u.stack = []


def _tuple(u: WeightsOnlyUnpickler) -> None:
    items = tuple(u.pop_mark())        # pop first: the mark restores the outer stack
    u.stack.append(items)


def _tuple_n(n: int) -> Callable:
    def make(u: WeightsOnlyUnpickler) -> None:
        items = tuple(u.stack[len(u.stack) - n:])
        if len(items) != n:
            raise UnpicklingError("unpickling stack underflow")
        u.stack[len(u.stack) - n:] = [items]
    return make


def _push(value_factory: Callable) -> Callable:
    def push(u: WeightsOnlyUnpickler) -> None:
        u.stack.append(value_factory())
    return push


def _unpacked(fmt: str) -> Callable:
    size = struct.calcsize(fmt)

    def push(u: WeightsOnlyUnpickler) -> None:
        u.stack.append(struct.unpack(fmt, _read_exactly(u, size))[0])
    return push


def _read_exactly(u: WeightsOnlyUnpickler, size: int) -> bytes:
    data = u.read(size)
    if len(data) != size:
        raise EOFError           # as torch's interpreter meets the end of a cut-short pickle
    return data


def _binunicode(u: WeightsOnlyUnpickler) -> None:
    length = struct.unpack("<I", _read_exactly(u, 4))[0]
    u.stack.append(str(_read_exactly(u, length), "utf-8", "surrogatepass"))


def _short_binstring(u: WeightsOnlyUnpickler) -> None:
    data = _read_exactly(u, _read_exactly(u, 1)[0])
    u.stack.append(data if u.encoding == "bytes" else data.decode(u.encoding, "strict"))


def _binpersid(u: WeightsOnlyUnpickler) -> None:
    pid = u.stack.pop()
    if type(pid) is not tuple and type(pid) is not int:
        raise UnpicklingError(f"persistent_load id must be tuple or int, but got {type(pid)}")
    if type(pid) is tuple and pid and _ascii(pid[0]) != "storage":
        raise UnpicklingError(f"Only persistent_load of storage is allowed, but got {type(pid[0])}")
    u.stack.append(u.persistent_load(pid))


def _ascii(value) -> Any:
    return value.decode("ascii") if isinstance(value, bytes) else value


def _memo_get(long: bool) -> Callable:
    def get(u: WeightsOnlyUnpickler) -> None:
        index = struct.unpack("<I", _read_exactly(u, 4))[0] if long else _read_exactly(u, 1)[0]
        u.stack.append(u.memo[index])
    return get


def _memo_put(long: bool) -> Callable:
    def put(u: WeightsOnlyUnpickler) -> None:
        index = struct.unpack("<I", _read_exactly(u, 4))[0] if long else _read_exactly(u, 1)[0]
        u.memo[index] = u.stack[-1]
    return put


def _long1(u: WeightsOnlyUnpickler) -> None:
    data = _read_exactly(u, _read_exactly(u, 1)[0])
    u.stack.append(int.from_bytes(data, "little", signed=True))


def _proto(u: WeightsOnlyUnpickler) -> None:
    protocol = _read_exactly(u, 1)[0]
    if protocol != 2:
        warnings.warn(f"Detected pickle protocol {protocol} in the checkpoint, which was not "
                      "the default pickle protocol used by `torch.load` (2). The weights_only "
                      "Unpickler might not support all instructions implemented by this "
                      "protocol, please file an issue for adding support if you encounter "
                      "this.", stacklevel=4)


def _stop(u: WeightsOnlyUnpickler) -> None:
    """Marks the end (`load` returns on it)."""


_OPCODES: dict[int, Callable] = {
    pickle.GLOBAL[0]: _global, pickle.NEWOBJ[0]: _newobj, pickle.REDUCE[0]: _reduce,
    pickle.BUILD[0]: _build, pickle.APPEND[0]: _append, pickle.APPENDS[0]: _appends,
    pickle.SETITEM[0]: _setitem, pickle.SETITEMS[0]: _setitems, pickle.MARK[0]: _mark,
    pickle.TUPLE[0]: _tuple, pickle.TUPLE1[0]: _tuple_n(1), pickle.TUPLE2[0]: _tuple_n(2),
    pickle.TUPLE3[0]: _tuple_n(3), pickle.NONE[0]: _push(lambda: None),
    pickle.NEWFALSE[0]: _push(lambda: False), pickle.NEWTRUE[0]: _push(lambda: True),
    pickle.EMPTY_TUPLE[0]: _push(tuple), pickle.EMPTY_LIST[0]: _push(list),
    pickle.EMPTY_DICT[0]: _push(dict), pickle.EMPTY_SET[0]: _push(set),
    pickle.BININT[0]: _unpacked("<i"), pickle.BININT1[0]: _unpacked("<B"),
    pickle.BININT2[0]: _unpacked("<H"), pickle.BINFLOAT[0]: _unpacked(">d"),
    pickle.BINUNICODE[0]: _binunicode, pickle.SHORT_BINSTRING[0]: _short_binstring,
    pickle.BINPERSID[0]: _binpersid, pickle.BINGET[0]: _memo_get(False),
    pickle.LONG_BINGET[0]: _memo_get(True), pickle.BINPUT[0]: _memo_put(False),
    pickle.LONG_BINPUT[0]: _memo_put(True), pickle.LONG1[0]: _long1,
    pickle.PROTO[0]: _proto, pickle.STOP[0]: _stop,
}


def globals_in(file) -> set[str]:
    """Every ``module.name`` a pickle's GLOBAL opcodes name, read without building anything."""
    found = set()
    skip = {pickle.BININT[0]: 4, pickle.BININT1[0]: 1, pickle.BININT2[0]: 2,
            pickle.BINFLOAT[0]: 8, pickle.BINGET[0]: 1, pickle.LONG_BINGET[0]: 4,
            pickle.BINPUT[0]: 1, pickle.LONG_BINPUT[0]: 4, pickle.PROTO[0]: 1}
    while True:
        key = file.read(1)
        if not key:
            raise EOFError
        op = key[0]
        if op == pickle.GLOBAL[0]:
            found.add("{}.{}".format(*read_global(file.readline)))
        elif op == pickle.STOP[0]:
            return found
        elif op == pickle.BINUNICODE[0]:
            file.read(struct.unpack("<I", file.read(4))[0])
        elif op in (pickle.SHORT_BINSTRING[0], pickle.LONG1[0]):
            file.read(file.read(1)[0])
        elif op in skip:
            file.read(skip[op])
        elif op not in _OPCODES:
            raise UnpicklingError(f"Unsupported operand {op}")
