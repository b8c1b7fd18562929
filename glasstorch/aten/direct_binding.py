"""Direct bindings: a binding spelled as a Python ``def`` with the signature's own
parameters (one overload, no varargs), the cheapest binding there is, and the
conversion lines every generated binder uses (see binding.py).
"""
from __future__ import annotations

from .python_arg import NUMPY_NAMED, to_any
from .schema import NO_DEFAULT

# Cheap type tests that let the common, already-right value skip its converter.
_FAST_TESTS = {"int": "type({v}) is not int", "SymInt": "type({v}) is not int",
               "bool": "type({v}) is not bool", "float": "type({v}) is not float",
               "ScalarType": "type({v}) is not _dtype", "Layout": "type({v}) is not _Layout",
               "Device": "type({v}) is not _Device",
               "MemoryFormat": "type({v}) is not _MemoryFormat",
               "Scalar": "type({v}) is not int and type({v}) is not float",
               "Tensor": "not isinstance({v}, _Tensor)"}


def conversion_line(p, i: int, index: int) -> str:
    if p.python_only and p.name == "out":
        return ""
    value = f"a{i}"
    guard = f"{value} is not None and " if (p.type is not None and p.type.optional
                                            or p.default is None) else ""
    base = "bool" if p.type is None else p.type.base
    test = "True" if p.type is not None and p.type.is_list else \
        _FAST_TESTS.get(base, "True").format(v=value)
    if guard + test == "True":
        return f"    {value} = C_{index}_{i}({value}, P_{index}_{i})"
    return f"    if {guard}{test}:\n        {value} = C_{index}_{i}({value}, P_{index}_{i})"


def direct_source(sig, name: str, kind: str, functional_call: bool = False) -> str | None:
    """A binding with the signature's own Python parameters (one overload, no varargs).

    Python binds the arguments itself, which is the cheapest binding there is; the
    body only converts values whose type is not already the expected one. Parameters
    with NumPy names (Note [NumPy argument names]) add a ``**numpy_names`` catch-all.
    Required parameters default to `MISSING`, which their conversion refuses, so that
    ``torch.cumsum(x, axis=0)`` reaches the body and a missing argument is reported in
    torch's words; ``*extra`` then catches surplus positional arguments, for the same
    reason. With `functional_call`, a call without ``out=`` goes straight to the
    functional overload's entry (``functional_0``), not through the caller that
    chooses between it and the out= overload. Returns None when the signature cannot
    be spelled as a Python ``def``.
    """
    import keyword
    if sig.varargs or any(keyword.iskeyword(p.name) for p in sig.params):
        return None
    missing = _may_be_missing(sig)
    if missing is None:
        return None
    params = _parameters_source(sig, kind, missing)
    numpy_names = sig.numpy_names and any(p.name in NUMPY_NAMED for p in sig.params)
    lines = [f"def {name}({', '.join(params + (['**numpy_names'] if numpy_names else []))}):"]
    if missing:
        positional = [p.name for p in sig.params if not p.kwarg_only]
        lines += ["    if extra:",
                  f"        _no_match_given({name!r}, SIGS, ({', '.join(positional + ['*extra'])},"
                  f"), {{}})"]
    if numpy_names:
        lines += _numpy_names_branch(sig, name, kind)
    lines += _checks_source(sig, name, bool(missing))
    call_args = (["self"] if kind == "method" else []) + [p.name for p in sig.params]
    if functional_call:
        lines += ["    if out is None:",
                  f"        return functional_0({', '.join(call_args[:-1])})"]
    lines.append(f"    return call_0({', '.join(call_args)})")
    return "\n".join(lines)


def _parameters_source(sig, kind: str, missing: set) -> list:
    """The ``def``'s parameters: the signature's, `MISSING` the default of those in
    `missing`. With defaults everywhere Python would word "too many arguments" its own
    way ("takes from 0 to 2 ..."), so ``*extra`` catches them, for torch's wording."""
    star = "*extra" if missing else "*"
    params, starred = (["self"] if kind == "method" else []), False
    for i, p in enumerate(sig.params):
        if p.kwarg_only and not starred:
            params.append(star)
            starred = True
        default = "MISSING" if i in missing else None if p.default is NO_DEFAULT else f"D_0_{i}"
        params.append(p.name if default is None else f"{p.name}={default}")
    if missing and not starred:
        params.append(star)
    return params


def _may_be_missing(sig) -> set | None:
    """The required parameters that default to `MISSING`: all of them when each has a
    conversion that refuses it (a missing argument is then reported in torch's words,
    not Python's); else those a NumPy name may stand for and the ones after them (a
    Python ``def`` puts defaults last). None when even those cannot all refuse it (the
    binding then takes the general path)."""
    required = {i for i, p in enumerate(sig.params) if p.default is NO_DEFAULT}
    if all(_refuses_missing(sig.params[i], i) for i in required):
        return required
    first = next((i for i in sorted(required) if sig.params[i].name in NUMPY_NAMED), None)
    if not sig.numpy_names or first is None:
        return set()
    missing = {i for i in required if i >= first}
    return missing if all(_refuses_missing(sig.params[i], i) for i in missing) else None


def _refuses_missing(p, i: int) -> bool:
    """Whether the parameter's conversion turns `MISSING` away (a Mismatch)."""
    return p.convert is not to_any and bool(conversion_line(p, i, 0))


def _numpy_names_branch(sig, name: str, kind: str) -> list:
    """The body's first lines: keywords left over are NumPy names; bind them the
    general way, with what Python already bound given as keywords."""
    defaults = ["MISSING" if p.default is NO_DEFAULT else f"D_0_{i}"
                for i, p in enumerate(sig.params)]
    given = ", ".join(f"({p.name!r}, {p.name}, {default})"
                      for p, default in zip(sig.params, defaults))
    self_arg = "self, " if kind == "method" else ""
    return ["    if numpy_names:",
            f"        keywords = keywords_given(({given},), numpy_names)",
            "        try:",
            "            bound = bind_0((), keywords)",
            "        except Mismatch:",
            f"            _no_match({name!r}, SIGS, (), keywords)",
            f"        return call_0({self_arg}*bound)"]


def _checks_source(sig, name: str, with_missing: bool) -> list:
    """The conversions of values whose type is not already right, and the error path."""
    checks = []
    for i, p in enumerate(sig.params):
        line = conversion_line(p, i, 0).replace(f"a{i}", p.name)
        checks += ["    " + piece for piece in line.split("\n")] if line else []
    if not checks:
        return []
    # the error path re-binds what was given: keyword-only values as keywords
    positional = [p.name for p in sig.params if not p.kwarg_only]
    given = ", ".join(positional) + ("," if len(positional) == 1 else "")
    keywords = ", ".join(f"{p.name!r}: {p.name}" for p in sig.params if p.kwarg_only)
    report = "_no_match_given" if with_missing else "_no_match"
    return ["    try:"] + checks + [
        "    except Mismatch:",
        f"        {report}({name!r}, SIGS, ({given}), {{{keywords}}})"]


def keywords_given(values: tuple, numpy_names: dict) -> dict:
    """What a direct binding was given, as keywords: (name, value, default) triples
    whose value is not the default, then the NumPy names."""
    keywords = {name: value for name, value, default in values if value is not default}
    keywords.update(numpy_names)
    return keywords


class _Missing:
    """The default of a required argument that a NumPy name may give instead."""

    def __repr__(self) -> str:
        return "<missing>"


MISSING = _Missing()
