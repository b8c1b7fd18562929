"""Python bindings: torch-style calls -> positional arguments in schema order.

For every Python name (``torch.transpose``, ``Tensor.view``) this module generates,
once, a function that tries each overload's signature in turn, the way torch's
PythonArgParser does: bind positional and keyword arguments, convert each value to
its schema type (ints from NumPy ints or 0-dim tensors, devices from strings, ...),
and call the first overload that accepts them. The per-signature binders are
generated as Python source (`print(binding_source('view'))` shows one), so a call
pays for no parsing.

torch's conventions, kept here:
  * functions name the `self` argument `input`; methods bind `self` to the tensor;
  * an int list that is the only positional argument may be given as varargs:
    ``x.view(2, 3)`` == ``x.view((2, 3))``; a fixed-size list (``int[2]``) accepts a
    single int;
  * the out= overload appears as an `out=` keyword of the functional signature;
  * factories take a Python-only ``requires_grad=`` keyword.
"""
from __future__ import annotations

import inspect

import numpy as np

from ..c10 import dtype as dtypes
from ..c10.device import device as Device
from ..c10.layout import layout as Layout, memory_format as MemoryFormat
from ..c10.tensor_impl import TensorBase
from . import torch_names
from .binding_callers import make_caller, out_last
from .direct_binding import MISSING, conversion_line, direct_source, keywords_given
from .python_arg import (_CONVERTERS, _LIST_CONVERTERS, _TYPE_TEXT, python_default,
                         NUMPY_NAMES, Mismatch, _describe, to_any, to_bool, to_tensor,
                         to_tensor_or_number)
from .schema import NO_DEFAULT, FunctionSchema, SchemaKind

_SIGNATURES: dict = {}     # ('function' | 'method', name) -> [Signature's arguments]
_GENERATED: dict = {}      # ('function' | 'method', name) -> generated function
_SOURCES: dict = {}        # ('function' | 'method', name) -> generated source text
_SINKS: list = []          # callbacks told of every (kind, name) that gains a signature
_EXPECTED: dict = {}       # (kind, name) -> families not loaded yet that declare it
_INDEXED: set = set()      # every (kind, name) the index lists, loaded or not
_LOADERS: list = []        # [load(family)] (Note [Families load on first use])

_TENSOR_OPTIONS = ("dtype", "layout", "device", "pin_memory")

# In-place overloads that torch also exposes as functions (`torch.relu_(x)`): those whose
# native_functions.yaml entry says `variants: function, method`. Most in-place ops are
# methods only (`torch.add_` does not exist), so this is a list, not a rule.
INPLACE_FUNCTIONS = frozenset("""
    _foreach_zero_
    abs_ acos_ acosh_ addmv_ alpha_dropout_ arccos_ arccosh_ arcsin_ arcsinh_ arctan_
    arctanh_ as_strided_ asin_ asinh_ atan_ atanh_ ceil_ celu_ clamp_ clamp_max_ clamp_min_
    clip_ conj_physical_ cos_ cosh_ deg2rad_ detach_ dropout_ embedding_renorm_ erf_ erfc_
    exp2_ exp_ expm1_ feature_alpha_dropout_ feature_dropout_ fill_ fix_ floor_ frac_ gcd_
    i0_ index_put_ lcm_ ldexp_ log10_ log1p_ log2_ log_ logit_ nan_to_num_ neg_ negative_
    rad2deg_ reciprocal_ relu_ resize_as_ round_ rrelu_ rsqrt_ selu_ sigmoid_ sin_ sinc_
    sinh_ sqrt_ square_ tan_ tanh_ threshold_ trunc_ xlogy_ zero_
""".split())
# An in-place overload is a Tensor method when its operator is one (`add_`, not
# `threshold_`, `celu_`, `dropout_`), except where native_functions.yaml makes only the
# in-place variant a method: `Tensor.fill_` exists, `Tensor.fill` does not.
INPLACE_METHODS = frozenset({"fill_"})


class Param:
    """One Python-level parameter of a signature."""

    def __init__(self, name, type_, default, kwarg_only, position, convert, python_only=False):
        self.name = name
        self.type = type_
        self.default = default
        self.kwarg_only = kwarg_only
        self.position = position
        self.convert = convert
        self.python_only = python_only
        if type_ is None:
            self.type_text = "bool"
        elif type_.is_list:
            # a lone Scalar reads "Number" in torch's messages, a list of them "Scalars"
            base = "Scalar" if type_.base == "Scalar" else _TYPE_TEXT.get(type_.base, type_.base)
            self.type_text = "tuple of ints" if base == "int" else f"tuple of {base}s"
        else:
            self.type_text = _TYPE_TEXT.get(type_.base, type_.base)

    def __str__(self) -> str:
        text = f"{self.type_text} {self.name}"
        if self.default is not NO_DEFAULT:
            text += f" = {self.default!r}" if self.default is not None else " = None"
        return text


class Signature:
    """One overload as seen from Python: its parameters and how to call it."""

    def __init__(self, name: str, schema: FunctionSchema, is_method: bool,
                 out_overload, functional_overload, with_requires_grad: bool,
                 schema_names: bool = False) -> None:
        self.name = name
        self.schema = schema
        self.is_method = is_method
        self.numpy_names = not schema_names         # Note [NumPy argument names]
        self.functional = functional_overload
        self.out_overload = out_overload
        self.params = []
        declaration = functional_overload.declaration
        numbers = declaration is not None and declaration.numbers
        for i, arg in enumerate(schema.arguments):
            if is_method and arg.name == "self":      # bound to the tensor, wherever it is
                continue
            # torch's functions call a Tensor `self` "input"; a number (`pow.Scalar`'s)
            # or a list (`_foreach_zero_`'s) keeps its name
            renamed = arg.name == "self" and arg.type.base == "Tensor" \
                and not arg.type.is_list and not is_method and not schema_names
            pname = "input" if renamed else arg.name
            default = python_default(arg, schema_names)
            convert = (_LIST_CONVERTERS.get(arg.type.base, to_any) if arg.type.is_list
                       else _CONVERTERS.get(arg.type.base, to_any))
            if convert is to_tensor and numbers and (numbers is True or arg.name in numbers):
                convert = to_tensor_or_number
            self.params.append(Param(pname, arg.type, default, arg.kwarg_only,
                                     len(self.params), convert))
        if out_overload is not None:
            self.params.append(Param("out", _tensor_type(), None, True, len(self.params),
                                     to_any, python_only=True))
        if with_requires_grad:
            self.params.append(Param("requires_grad", None, False, True, len(self.params),
                                     to_bool, python_only=True))
        self.by_name = {p.name: p for p in self.params}
        positional = [p for p in self.params if not p.kwarg_only]
        self.n_positional = len(positional)
        self.varargs = (len(positional) == 1 and positional[0].type.is_list
                        and positional[0].type.base in ("int", "SymInt"))

    def __str__(self) -> str:
        parts, star = [], False
        for p in self.params:
            if p.kwarg_only and not star:
                parts.append("*")
                star = True
            parts.append(str(p))
        return f"({', '.join(parts)})"


def _tensor_type():
    from .schema import Type
    return Type("Tensor", optional=True)


# ----------------------------------------------------------------------------------
# Generating the binder of one signature
# ----------------------------------------------------------------------------------
def _binder_source(sig: Signature, index: int) -> str:
    n_all = len(sig.params)
    lines = [f"def bind_{index}(args, kwargs):", "    n = len(args)"]
    if sig.varargs:
        lines += ["    if n > 1 or (n == 1 and (type(args[0]) is int or _is_int_like(args[0]))):",
                  "        args = (args,)", "        n = 1"]
    lines += [f"    if n > {sig.n_positional}:",
              f"        raise Mismatch(f'{_takes_text(sig)} but {{n}} were given')",
              "    if kwargs:",
              f"        args = _merge(args, kwargs, SIG_{index})",
              f"    elif n != {n_all}:",
              f"        fill = FILL_{index}[n]",
              "        if fill is None:",
              f"            _missing(args, SIG_{index})",
              "        args = args + fill"]
    names = [f"a{i}" for i in range(n_all)]
    if n_all:
        lines.append(f"    {', '.join(names)}{',' if n_all == 1 else ''} = args")
    for i, p in enumerate(sig.params):
        check = conversion_line(p, i, index)
        if check:
            lines.append(check)
    lines.append(f"    return ({', '.join(names)}{',' if n_all == 1 else ''})")
    return "\n".join(lines)


def _is_int_like(value) -> bool:
    return (isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))) \
        or (isinstance(value, TensorBase) and value.dim() == 0)


def _merge(args: tuple, kwargs: dict, sig: Signature) -> tuple:
    """Bind keywords into a full positional tuple (the uncommon path). As torch's
    parser, a missing argument is reported before an unexpected keyword."""
    values = list(args)
    values.extend([NO_DEFAULT] * (len(sig.params) - len(args)))
    by_name = sig.by_name
    unexpected = None
    for key, value in kwargs.items():
        p = by_name.get(key)
        if p is None and sig.numpy_names:
            p = _numpy_named(key, kwargs, by_name, values)
        if p is None:
            unexpected = unexpected or key
            continue
        if values[p.position] is not NO_DEFAULT:
            raise Mismatch(f"got multiple values for argument '{key}'")
        values[p.position] = value
    missing = []
    for p in sig.params:            # loops, not comprehensions: no frame of their own
        if values[p.position] is NO_DEFAULT:
            if p.default is NO_DEFAULT:
                missing.append(p.name)
            values[p.position] = p.default
    if missing:
        raise Mismatch(_missing_text(missing))
    if unexpected is not None:
        raise Mismatch(f"got an unexpected keyword argument '{unexpected}'")
    return tuple(values)


def _numpy_named(key: str, kwargs: dict, by_name: dict, values: list):
    """The parameter a NumPy keyword stands for, if it has no value yet and its own
    name was not given (Note [NumPy argument names]); else None."""
    name = NUMPY_NAMES.get(key)
    p = by_name.get(name)
    if p is None or name in kwargs or values[p.position] is not NO_DEFAULT:
        return None
    return p


def _missing(args: tuple, sig: Signature):
    raise Mismatch(_missing_text([p.name for p in sig.params[len(args):]
                                  if p.default is NO_DEFAULT]))


def _takes_text(sig: Signature) -> str:
    """torch's words for how many positional arguments a signature takes."""
    most = sig.n_positional
    least = sum(1 for p in sig.params if not p.kwarg_only and p.default is NO_DEFAULT)
    if least == most:
        return f"takes {most} positional argument{'' if most == 1 else 's'}"
    return f"takes from {least} to {most} positional arguments"


def _missing_text(names: list) -> str:
    """torch's words, its number agreement included: "1 ... arguments", "2 ... argument"."""
    noun = "arguments" if len(names) == 1 else "argument"
    return f"missing {len(names)} required positional {noun}: " + ", ".join(
        f'"{n}"' for n in names)


def _fill_table(sig: Signature) -> tuple:
    """FILL[n]: the defaults completing n given positional arguments, or None."""
    table = []
    for n in range(len(sig.params) + 1):
        rest = sig.params[n:]
        if any(p.default is NO_DEFAULT for p in rest):
            table.append(None)
        else:
            table.append(tuple(p.default for p in rest))
    return tuple(table)


def _binder_namespace(sig: Signature, index: int) -> dict:
    """The names a generated binder refers to: its signature, converters, defaults."""
    namespace = {"Mismatch": Mismatch, "_merge": _merge, "_missing": _missing,
                 "_is_int_like": _is_int_like, "_dtype": dtypes.dtype, "_Tensor": TensorBase,
                 "_Layout": Layout, "_Device": Device, "_MemoryFormat": MemoryFormat,
                 f"SIG_{index}": sig, f"FILL_{index}": _fill_table(sig)}
    for i, p in enumerate(sig.params):
        namespace[f"P_{index}_{i}"] = p
        namespace[f"C_{index}_{i}"] = p.convert
    return namespace


def _no_match_given(name: str, sigs: list, args: tuple, kwargs: dict):
    """`_no_match` for a direct binding whose missing arguments hold `MISSING`: what
    follows the first missing positional one was given by keyword."""
    names = [p.name for p in sigs[0].params if not p.kwarg_only]
    cut = next((i for i, a in enumerate(args) if a is MISSING), len(args))
    keywords = {n: a for n, a in zip(names[cut:], args[cut:]) if a is not MISSING}
    keywords.update({k: v for k, v in kwargs.items() if v is not MISSING})
    _no_match(name, sigs, args[:cut], keywords)


def _generate(kind: str, name: str) -> None:
    sigs = [Signature(*arguments) for arguments in _SIGNATURES[kind, name]]
    namespace = {"_no_match": _no_match, "SIGS": sigs, "Mismatch": Mismatch,
                 "_no_match_given": _no_match_given, "keywords_given": keywords_given,
                 "MISSING": MISSING}
    blocks = []
    for i, sig in enumerate(sigs):
        namespace.update(_binder_namespace(sig, i))
        namespace[f"call_{i}"] = make_caller(sig)
        namespace.update({f"D_{i}_{j}": p.default for j, p in enumerate(sig.params)})
        blocks.append(_binder_source(sig, i))
    direct = None
    if len(sigs) == 1:
        functional_call = out_last(sigs[0])
        namespace["functional_0"] = sigs[0].functional.call
        direct = direct_source(sigs[0], name, kind, functional_call)
    if direct is not None:
        _install_binding(kind, name, "\n\n".join(blocks + [direct]), namespace, sigs)
        return
    head = f"def {name}(self, *args, **kwargs):" if kind == "method" else \
        f"def {name}(*args, **kwargs):"
    body = [head]
    # the call without arguments (``x.sum()``) binds the same values every time: the
    # first overload taking it, bound once
    bare = next((i for i in range(len(sigs)) if namespace[f"FILL_{i}"][0] is not None), None)
    if bare is not None:
        body += ["    if not args and not kwargs and BARE is not None:",
                 f"        return call_{bare}({'self, ' if kind == 'method' else ''}*BARE)"]
    namespace["BARE"] = None
    for i in range(len(sigs)):
        body += ["    try:", f"        bound = bind_{i}(args, kwargs)",
                 "    except Mismatch:", "        pass", "    else:"]
        if kind == "method":
            body.append(f"        return call_{i}(self, *bound)")
        else:
            body.append(f"        return call_{i}(*bound)")
    body.append(f"    _no_match({name!r}, SIGS, args, kwargs)")
    _install_binding(kind, name, "\n\n".join(blocks + ["\n".join(body)]), namespace, sigs)
    if bare is not None:
        namespace["BARE"] = _bound_once(namespace[f"bind_{bare}"])


def _bound_once(bind):
    """The values `bind` gives a call without arguments, when they can be shared by every
    such call (no mutable value among them); else None."""
    try:
        values = bind((), {})
    except Mismatch:
        return None
    if any(isinstance(v, (list, dict, set, bytearray, np.ndarray)) for v in values):
        return None
    return values


def _install_binding(kind: str, name: str, source: str, namespace: dict, sigs: list) -> None:
    exec(compile(source, f"<binding {kind} {name}>", "exec"), namespace)
    function = namespace[name]
    declaration = sigs[0].functional.declaration
    function.__doc__ = _cleaned(declaration.doc) if declaration else None
    function.__qualname__ = f"Tensor.{name}" if kind == "method" else name
    _SOURCES[kind, name] = source
    _GENERATED[kind, name] = function


def _cleaned(doc: str | None) -> str | None:
    """A docstring without its source indentation (done when a binding is made, not at
    import: see Note [Bindings are generated on first use])."""
    return None if doc is None else inspect.cleandoc(doc)


def _no_match(name: str, sigs: list, args: tuple, kwargs: dict):
    reasons = []
    for i, sig in enumerate(sigs):
        try:
            namespace_bind(sig, i)(args, kwargs)
        except Mismatch as e:
            reasons.append(e.message)
    if len(sigs) == 1:                  # torch: "f(): argument 'x' ...", "f() takes ..."
        reason = _unpositioned(reasons[0], kwargs)
        colon = ":" if reason.startswith("argument ") else ""
        raise TypeError(f"{name}(){colon} {reason}")
    got = ", ".join([_describe(a) for a in args] +
                    [f"{k}={_describe(v)}" for k, v in kwargs.items()])
    expected = "\n".join(f" * {sig}" for sig in sigs)
    raise TypeError(f"{name}() received an invalid combination of arguments - got ({got}), "
                    f"but expected one of:\n{expected}\n")


def _unpositioned(reason: str, kwargs: dict) -> str:
    """torch names an argument's position only when it was given by position."""
    head, mark, rest = reason.partition(" (position ")
    if not mark or not head.startswith("argument '"):
        return reason
    name = head[len("argument '"):-1]
    if name in kwargs or any(NUMPY_NAMES.get(key) == name for key in kwargs):
        return head + rest[rest.index(")") + 1:]
    return reason


def namespace_bind(sig: Signature, index: int):
    """The generated binder of one signature (recompiled on demand, for error reporting)."""
    namespace = _binder_namespace(sig, index)
    exec(_binder_source(sig, index), namespace)
    return namespace[f"bind_{index}"]


# ----------------------------------------------------------------------------------
# Entry points for the registry
# ----------------------------------------------------------------------------------
def bind_declaration(decl) -> None:
    """Add the Python signatures of a declaration and regenerate the affected names."""
    functional = decl.overloads.get(SchemaKind.functional)
    inplace = decl.overloads.get(SchemaKind.inplace)
    out = decl.overloads.get(SchemaKind.out) if decl.bind_out else None
    name = decl.python_name
    if functional is not None:
        schema = functional._schema
        given = {a.name for a in schema.arguments}
        factory = given.issuperset(_TENSOR_OPTIONS)
        has_self = "self" in given
        if decl.function:
            kind = decl.python_module or "function"     # see Note [Namespace modules]
            _add(kind, name, (name, schema, False, out, functional, factory))
        if decl.method and has_self:
            _add("method", name, (name, schema, True, None, functional, factory))
    if inplace is not None:
        inplace_name = name if name.endswith("_") else name + "_"
        if decl.python_module is not None:      # torch._C._nn.elu_: a function, no method
            _add(decl.python_module, inplace_name,
                 (inplace_name, inplace._schema, False, None, inplace, False))
            return
        if decl.method or inplace_name in INPLACE_METHODS:
            _add("method", inplace_name,
                 (inplace_name, inplace._schema, True, None, inplace, False))
        if inplace_name in INPLACE_FUNCTIONS:
            _add("function", inplace_name,
                 (inplace_name, inplace._schema, False, None, inplace, False))


def _add(kind: str, name: str, arguments: tuple) -> None:
    """Record a signature (built, with its parameters, only when the name's binding is
    generated: Note [Bindings are generated on first use])."""
    _SIGNATURES.setdefault((kind, name), []).append(arguments)
    _GENERATED.pop((kind, name), None)          # regenerated, with the new overload, on use
    for sink in _SINKS:
        sink(kind, name)


def get_binding(kind: str, name: str):
    """The generated ``torch.<name>`` (kind 'function') or ``Tensor.<name>`` ('method').

    Note [Bindings are generated on first use]
        Compiling a binding costs a fraction of a millisecond; hundreds of them would
        make `import glasstorch` slow. So declarations only record signatures, and a
        binding is compiled the first time someone looks the name up (the torch
        module's `__getattr__`, or a `LazyMethod` on Tensor that replaces itself).
    """
    function = _GENERATED.get((kind, name))
    if function is None:
        for family in _EXPECTED.pop((kind, name), ()):
            _LOADERS[0](family)             # declares the name's other overloads
        if (kind, name) not in _SIGNATURES:
            raise KeyError(name)
        _generate(kind, name)
        function = _GENERATED[kind, name]
    return function


def has_binding(kind: str, name: str) -> bool:
    """Whether a binding of this kind and name is declared or listed by the family index."""
    return (kind, name) in _SIGNATURES or (kind, name) in _INDEXED


def expect(index: dict, load) -> None:
    """Note names that families not loaded yet declare (`index`: (kind, name) ->
    families, which `load(family)` loads). Sinks hear of the names now."""
    _LOADERS[:] = [load]
    _EXPECTED.update(index)
    _INDEXED.update(index)
    for kind, name in index:
        for sink in _SINKS:
            sink(kind, name)


def names(kind: str) -> list:
    """Every Python name with a binding of this kind ('function' or 'method')."""
    return list(dict.fromkeys([name for k, name in [*_SIGNATURES, *_EXPECTED] if k == kind]))


def add_sink(callback, past: bool = True) -> None:
    """Call `callback(kind, name)` for every name with bindings declared from now on,
    and (`past`) for every one declared already."""
    _SINKS.append(callback)
    if past:
        for kind, name in [*_SIGNATURES, *_EXPECTED]:
            callback(kind, name)


def namespace_getattr(module_name: str, kind: str, prefix: str = ""):
    """The module-level ``__getattr__`` of a namespace module (``torch.linalg``...).

    Note [Namespace modules]
        torch puts some operators in submodules: ``linalg_multi_dot`` is
        ``torch.linalg.multi_dot``, ``linear`` is ``torch.nn.functional.linear``
        (native_functions.yaml's ``python_module:``). A declaration says so with
        ``python_module="linalg"``; its function binding is then filed under that kind
        instead of 'function', and the namespace module finds it by name, with the
        module's prefix (``linalg_``) added. Adding a function to a namespace is that
        one argument; the module itself lists nothing. A binding found is put in the
        module (later look-ups cost nothing), and taken out again when an overload of
        its name is declared, as the torch module does with its own.
    """
    import sys
    cached = set()

    def __getattr__(name: str):
        try:
            function = get_binding(kind, prefix + name)
        except KeyError:
            raise torch_names.missing_attribute(module_name, name) from None
        setattr(sys.modules[module_name], name, function)
        cached.add(name)
        return function

    def forget(declared_kind: str, declared: str) -> None:
        short = declared[len(prefix):]
        if declared_kind == kind and declared.startswith(prefix) and short in cached:
            cached.discard(short)
            delattr(sys.modules[module_name], short)
    add_sink(forget, past=False)          # nothing is in the module yet
    return __getattr__


def namespace_names(kind: str, prefix: str = "") -> list:
    """The public names a namespace module offers (for its ``__dir__``)."""
    return [name[len(prefix):] for name in names(kind) if name.startswith(prefix)]


class LazyMethod:
    """A Tensor method compiled on first access, then put in its own place on the class."""

    __slots__ = ("owner", "name")

    def __init__(self, owner: type, name: str) -> None:
        self.owner = owner
        self.name = name

    def __get__(self, obj, cls=None):
        function = get_binding("method", self.name)
        setattr(self.owner, self.name, function)
        return function if obj is None else function.__get__(obj, cls)


def binding_source(name: str, kind: str = "function") -> str:
    """The generated Python source of a binding, for reading."""
    get_binding(kind, name)
    return _SOURCES[kind, name]


def call_packet(packet, args: tuple, kwargs: dict):
    """`torch.ops.aten.name(...)`: the first overload whose schema accepts the arguments."""
    overloads = list(packet._overloads.values())
    for overload in overloads:
        try:
            bound = schema_binder(overload)(args, kwargs)
        except Mismatch:
            continue
        return overload.call(*bound)
    _no_match(packet._name, [_schema_signature(o) for o in overloads], args, kwargs)


def call_overload(overload, args: tuple, kwargs: dict):
    """`torch.ops.aten.name.overload(...)` with keywords or defaults left out."""
    try:
        bound = schema_binder(overload)(args, kwargs)
    except Mismatch:
        _no_match(overload.name, [_schema_signature(overload)], args, kwargs)
    return overload.call(*bound)


def schema_binder(overload):
    """A binder for an overload's own schema (argument names as in the schema), cached."""
    binder = overload.__dict__.get("_schema_binder")
    if binder is None:
        binder = overload._schema_binder = namespace_bind(_schema_signature(overload), 0)
    return binder


def _schema_signature(overload) -> Signature:
    """The schema as a Python signature; keyword-only arguments may also come positionally,
    so operators can pass every argument in schema order."""
    sig = Signature(overload.name, overload._schema, False, None, overload, False,
                    schema_names=True)
    for p in sig.params:
        p.kwarg_only = False
    sig.n_positional = len(sig.params)
    sig.varargs = False
    return sig
