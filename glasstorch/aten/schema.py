"""ATen's schema language, parsed once into small frozen records.

    add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor
    ^name ^overload  ^type ^name             ^kw-only   ^default  ^returns

Types are ATen's: `Tensor`, `int`, `SymInt`, `float`, `bool`, `str`, `Scalar`,
`ScalarType`, `Layout`, `Device`, `MemoryFormat`, `Generator`, `Dimname`, ... with
the suffixes `[]` / `[N]` (lists, fixed size N) and `?` (may be None). A Tensor may
carry an alias annotation: `Tensor(a)` is a view of input `a`, `Tensor(a!)` is
written in place. From the annotations alone `SchemaKind` tells an operator's variant
(functional / inplace / out), as torchgen does; nothing is guessed from names.
"""
from __future__ import annotations

import enum
import re


class SchemaKind(enum.Enum):
    functional = "functional"   # returns fresh tensors (or views of its inputs)
    inplace = "inplace"         # writes `self` and returns it: add_
    out = "out"                 # writes keyword-only `out` tensors and returns them
    mutable = "mutable"         # writes some other argument


class Record:
    """A small record compared and printed by the values of its `_fields`, as a dataclass.

    Note [Records without dataclasses]
        `@dataclass` writes a class's methods as source text and compiles them when the
        class is made, at every import (the bytecode cache holds none of it): about half
        a millisecond a class. The schema's records and the registry's `Declaration` are
        made at `import glasstorch`, so they share these methods instead; a subclass names
        its fields in `_fields` and sets them in its own ``__init__``.
    """

    _fields: tuple = ()
    __hash__ = None                 # mutable: unhashable, as a dataclass with eq

    def _values(self) -> tuple:
        return tuple(getattr(self, name) for name in self._fields)

    def __eq__(self, other) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._values() == other._values()

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._fields)
        return f"{type(self).__qualname__}({fields})"


class FrozenRecord(Record):
    """A `Record` that cannot change once made, and so is hashable (and shareable)."""

    def __setattr__(self, name: str, value) -> None:
        raise AttributeError(f"cannot assign to field '{name}'")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field '{name}'")

    def __hash__(self) -> int:
        return hash(self._values())


class AliasInfo(FrozenRecord):
    """An alias annotation: the alias sets (`a`, `b`, `*`) and whether it is written."""

    _fields = ("before", "after", "is_write")

    def __init__(self, before: tuple, after: tuple, is_write: bool) -> None:
        vars(self).update(before=before, after=after, is_write=is_write)

    def __str__(self) -> str:
        text = "|".join(self.before) + ("!" if self.is_write else "")
        if self.after != self.before:
            text += " -> " + "|".join(self.after)
        return f"({text})"


class Type(FrozenRecord):
    """An argument type: `base` plus list-ness (`size` for `int[2]`) and optional-ness.

    `element_optional` marks ``Tensor?[]``: a list whose items may be None.
    """

    _fields = ("base", "is_list", "size", "optional", "element_optional")

    def __init__(self, base: str, is_list: bool = False, size: int | None = None,
                 optional: bool = False, element_optional: bool = False) -> None:
        vars(self).update(base=base, is_list=is_list, size=size, optional=optional,
                          element_optional=element_optional)

    def __str__(self) -> str:
        text = self.base + ("?" if self.element_optional else "")
        if self.is_list:
            text += f"[{self.size}]" if self.size is not None else "[]"
        return text + ("?" if self.optional else "")


NO_DEFAULT = object()   # marks an argument without a default


class Argument(FrozenRecord):
    """One argument of a schema; `default_text` is its default as written there."""

    _fields = ("name", "type", "default", "kwarg_only", "alias", "default_text")

    def __init__(self, name: str, type: Type, default: object = NO_DEFAULT,
                 kwarg_only: bool = False, alias: AliasInfo | None = None,
                 default_text: str | None = None) -> None:
        vars(self).update(name=name, type=type, default=default, kwarg_only=kwarg_only,
                          alias=alias, default_text=default_text)

    @property
    def has_default(self) -> bool:
        return self.default is not NO_DEFAULT

    @property
    def is_write(self) -> bool:
        return self.alias is not None and self.alias.is_write

    def __str__(self) -> str:
        alias = str(self.alias) if self.alias else ""
        text = f"{_type_with_alias(self.type, alias)} {self.name}"
        if self.default_text is not None:
            text += f"={self.default_text}"
        return text


class Return(FrozenRecord):
    """One result of a schema, named (``Tensor values``) or not."""

    _fields = ("type", "name", "alias")

    def __init__(self, type: Type, name: str | None = None,
                 alias: AliasInfo | None = None) -> None:
        vars(self).update(type=type, name=name, alias=alias)

    def __str__(self) -> str:
        text = _type_with_alias(self.type, str(self.alias) if self.alias else "")
        return f"{text} {self.name}" if self.name else text


class FunctionSchema(FrozenRecord):
    """A parsed operator schema; `str(schema)` prints it back in ATen's syntax."""

    _fields = ("name", "overload_name", "arguments", "returns")

    def __init__(self, name: str, overload_name: str, arguments: tuple, returns: tuple) -> None:
        vars(self).update(name=name, overload_name=overload_name, arguments=arguments,
                          returns=returns)

    @property
    def qualified_name(self) -> str:
        return f"{self.name}.{self.overload_name}" if self.overload_name else self.name

    @property
    def kind(self) -> SchemaKind:
        """Functional, inplace or out, read from the alias annotations (torchgen's rule)."""
        written = [a for a in self.arguments if a.is_write]
        if not written:
            return SchemaKind.functional
        if any(a.kwarg_only for a in written):       # rrelu_with_noise.out writes noise too
            return SchemaKind.out
        if self.name.endswith("_") and written[0] is self.arguments[0]:
            return SchemaKind.inplace
        return SchemaKind.mutable

    @property
    def is_view(self) -> bool:
        """True when the results alias an input without writing it: a view op."""
        return any(r.alias is not None and not r.alias.is_write for r in self.returns)

    @property
    def positional(self) -> tuple:
        return tuple(a for a in self.arguments if not a.kwarg_only)

    @property
    def kwarg_only(self) -> tuple:
        return tuple(a for a in self.arguments if a.kwarg_only)

    @property
    def out_arguments(self) -> tuple:
        return tuple(a for a in self.arguments if a.kwarg_only and a.is_write)

    def __str__(self) -> str:
        parts = []
        star_written = False
        for a in self.arguments:
            if a.kwarg_only and not star_written:
                parts.append("*")
                star_written = True
            parts.append(str(a))
        if len(self.returns) == 1 and self.returns[0].name is None:
            rets = str(self.returns[0])
        else:
            rets = "(" + ", ".join(str(r) for r in self.returns) + ")"
        return f"{self.qualified_name}({', '.join(parts)}) -> {rets}"


def _type_with_alias(t: Type, alias: str) -> str:
    if not alias:
        return str(t)
    text = str(t)
    # The annotation sits right after the base name: Tensor(a!)[] or Tensor(a)?
    return t.base + alias + text[len(t.base):]


# ----------------------------------------------------------------------------------
# Parsing
# ----------------------------------------------------------------------------------
_SCHEMA = re.compile(r"^\s*([\w:]+)(?:\.(\w+))?\s*\((.*)\)\s*->\s*(.+?)\s*$", re.S)
_TYPE = re.compile(r"^([A-Za-z_]\w*)(\([^)]*\))?(\?)?(?:\[(\d*)\])?(\?)?$")
_BASE_TYPES = {"Tensor", "int", "SymInt", "float", "bool", "str", "Scalar", "ScalarType",
               "Layout", "Device", "MemoryFormat", "Generator", "Dimname", "Storage",
               "Stream", "complex", "Any", "QScheme", "t", "DeviceIndex", "SymFloat",
               "SymBool", "GraphModule", "__torch__"}
# Named constants ATen schemas use as defaults; their Python values are filled in by
# the binding layer (`binding.py`), which knows the dtype/layout/format objects.
SYMBOLIC_DEFAULTS = {"contiguous_format", "preserve_format", "channels_last", "strided",
                     "long", "int", "float", "double", "Mean", "Sum", "None_"}


def parse_schema(text: str) -> FunctionSchema:
    """Parse one schema string.

    Args:
        text: e.g. ``"transpose.int(Tensor(a) self, int dim0, int dim1) -> Tensor(a)"``.

    Returns:
        The `FunctionSchema`.

    Raises:
        ValueError: naming the schema and the part that does not parse.
    """
    match = _SCHEMA.match(text)
    if not match:
        raise ValueError(f"schema {text!r}: expected 'name.overload(args) -> returns'")
    name, overload, args_text, returns_text = match.groups()
    arguments = []
    kwarg_only = False
    for piece in _split_top_level(args_text):
        if piece == "*":
            kwarg_only = True
            continue
        found = _ARGUMENTS.get((piece, kwarg_only))
        if found is None:           # arguments repeat across schemas ("Tensor self")
            found = _ARGUMENTS[piece, kwarg_only] = _parse_argument(piece, kwarg_only, text)
        arguments.append(found)
    returns = _RETURNS.get(returns_text)
    if returns is None:
        returns = _RETURNS[returns_text] = _parse_returns(returns_text, text)
    return FunctionSchema(name, overload or "", tuple(arguments), returns)


_ARGUMENTS: dict = {}       # (argument text, keyword-only) -> Argument (frozen: shareable)
_RETURNS: dict = {}         # returns text -> tuple of Return


def _split_top_level(text: str) -> list:
    """Split on commas that are not inside brackets or parentheses (a comma-split piece
    that leaves a bracket open is joined with the next)."""
    pieces, pending = [], ""
    for part in text.split(","):
        pending = f"{pending},{part}" if pending else part
        if pending.count("(") + pending.count("[") == pending.count(")") + pending.count("]"):
            if pending.strip():
                pieces.append(pending.strip())
            pending = ""
    return pieces


def _parse_type(text: str, schema: str) -> tuple:
    match = _TYPE.match(text.replace(" ", ""))
    if not match:
        raise ValueError(f"schema {schema!r}: cannot parse type {text!r}")
    base, alias_text, element_optional, size, optional = match.groups()
    if base not in _BASE_TYPES:
        raise ValueError(f"schema {schema!r}: unknown type {base!r}")
    is_list = size is not None
    if not is_list and element_optional:      # 'Tensor?' without brackets: plain optional
        optional, element_optional = "?", None
    typ = Type(base, is_list, int(size) if size else None, bool(optional), bool(element_optional))
    return typ, _parse_alias(alias_text) if alias_text else None


def _parse_alias(text: str) -> AliasInfo:
    inner = text[1:-1].strip()
    before, _, after = (part.strip() for part in inner.partition("->"))
    is_write = before.endswith("!")
    before_sets = tuple(before.rstrip("!").split("|"))
    after_sets = tuple(after.split("|")) if after else before_sets
    return AliasInfo(before_sets, after_sets, is_write)


def _parse_argument(text: str, kwarg_only: bool, schema: str) -> Argument:
    decl, eq, default_text = text.partition("=")
    type_text, _, name = decl.strip().rpartition(" ")
    if not type_text:
        raise ValueError(f"schema {schema!r}: argument {text!r} needs a type and a name")
    typ, alias = _parse_type(type_text, schema)
    if eq:
        default_text = default_text.strip()
        default = parse_default(default_text, typ)
    else:
        default_text, default = None, NO_DEFAULT
    return Argument(name, typ, default, kwarg_only, alias, default_text)


def _parse_returns(text: str, schema: str) -> tuple:
    text = text.strip()
    if text.startswith("(") and text.endswith(")"):
        pieces = _split_top_level(text[1:-1])
    else:
        pieces = [text]
    returns = []
    for piece in pieces:
        type_text, _, name = piece.rpartition(" ")
        if not type_text:             # unnamed return: the whole piece is the type
            type_text, name = piece, None
        typ, alias = _parse_type(type_text, schema)
        returns.append(Return(typ, name, alias))
    return tuple(returns)


def parse_default(text: str, typ: Type):
    """The Python value of a default as written in a schema.

    Numbers, True/False/None, lists, quoted strings become their values; the named
    constants in `SYMBOLIC_DEFAULTS` stay strings for the binding layer to resolve.
    """
    if text == "None":
        return None
    if text in ("True", "False"):
        return text == "True"
    if text.startswith("[") and text.endswith("]"):
        inner = text[1:-1].strip()
        item = Type(typ.base)           # an item of `int[1] padding=[0]` is one int
        return tuple(parse_default(p.strip(), item) for p in inner.split(",")) if inner else ()
    if text[0] in "'\"":
        return text[1:-1]
    if text in SYMBOLIC_DEFAULTS:
        return text
    try:
        value = int(text)
    except ValueError:
        try:
            value = float(text)
        except ValueError:
            raise ValueError(f"cannot parse default value {text!r}") from None
    if typ.base in ("float", "SymFloat") and not typ.is_list:
        return float(value)
    if typ.is_list and isinstance(value, int) and typ.size:   # int[2] stride=1 means [1, 1]
        return (value,) * typ.size
    return value
