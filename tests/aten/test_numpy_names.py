"""NumPy's argument names (Note [NumPy argument names] in aten/python_arg.py), against torch.

``axis=`` for `dim`, ``keepdims=`` for `keepdim`, ``x=``/``a=``/``x1=`` for `input` and
``x2=`` for `other`, in functions and methods of one or several overloads; and the
refusals where torch refuses (both spellings given, schema-named `torch.ops.aten` calls).
"""
import pytest

import glasstorch as gt

torch = pytest.importorskip("torch")

CALLS = {
    "sum axis": lambda lib, x: lib.sum(x, axis=0),
    "sum a axis keepdims": lambda lib, x: lib.sum(a=x, axis=1, keepdims=True),
    "mean axis": lambda lib, x: lib.mean(x, axis=1),
    "prod axis": lambda lib, x: lib.prod(x, axis=1, keepdims=True),
    "amax axis": lambda lib, x: lib.amax(x, axis=0),
    "argmax axis keepdims": lambda lib, x: lib.argmax(x, axis=1, keepdims=True),
    "cumsum axis": lambda lib, x: lib.cumsum(x, axis=1),
    "cumsum x axis": lambda lib, x: lib.cumsum(x=x, axis=0),
    "stack axis": lambda lib, x: lib.stack([x, x], axis=1),
    "cat axis": lambda lib, x: lib.cat([x, x], axis=1),
    "softmax axis": lambda lib, x: lib.softmax(x, axis=0),
    "max axis": lambda lib, x: lib.max(x, axis=1).values,
    "sort axis": lambda lib, x: lib.sort(x, axis=0).values,
    "squeeze axis": lambda lib, x: lib.squeeze(x[:1], axis=0),
    "unsqueeze axis": lambda lib, x: lib.unsqueeze(x, axis=0),
    "add x1 x2": lambda lib, x: lib.add(x1=x, x2=x),
    "add x2": lambda lib, x: lib.add(x, x2=x),
    "where x1 x2": lambda lib, x: lib.where(x > 1, x1=x, x2=-x),
    "neg x": lambda lib, x: lib.neg(x=x),
    "neg a": lambda lib, x: lib.neg(a=x),
    "method sum axis": lambda lib, x: x.sum(axis=1),
    "method cumsum axis": lambda lib, x: x.cumsum(axis=0),
    "method add x2": lambda lib, x: x.add(x2=x),
    "method max axis keepdims": lambda lib, x: x.max(axis=0, keepdims=True).values,
    # refusals: both spellings, a NumPy name where the parameter is given, unknown names
    "both dim and axis": lambda lib, x: lib.cumsum(x, axis=0, dim=1),
    "input and x": lambda lib, x: lib.neg(input=x, x=x),
    "positional and x": lambda lib, x: lib.neg(x, x=x),
    "not a NumPy name": lambda lib, x: lib.neg(y=x),
    "missing": lambda lib, x: lib.cumsum(x),
    "missing two": lambda lib, x: lib.cumsum(),
    "missing input": lambda lib, x: lib.neg(),
    "method missing two": lambda lib, x: x.transpose(),
    "too many": lambda lib, x: lib.neg(x, x),
    "wrong type by NumPy name": lambda lib, x: lib.cumsum(x, axis="a"),
    "wrong type by position": lambda lib, x: lib.cumsum(x, "a"),
    "wrong keyword-only type": lambda lib, x: lib.cumsum(x, 0, dtype="a"),
}


def _outcome(call, lib):
    x = lib.arange(6.).reshape(2, 3)
    try:
        return "ok", call(lib, x).tolist()
    except Exception as error:   # noqa: BLE001 - the error is the outcome
        return type(error).__name__, str(error).split("\n")[0]


@pytest.mark.parametrize("name", list(CALLS))
def test_numpy_names_as_torch(name):
    assert _outcome(CALLS[name], gt) == _outcome(CALLS[name], torch)


def test_schema_calls_take_schema_names_only():
    """`torch.ops.aten` binds the schema's names: no NumPy names there (torch refuses too)."""
    with pytest.raises(TypeError, match="missing 1 required positional arguments"):
        gt.ops.aten.cumsum.default(gt.zeros(3), axis=0)
    with pytest.raises(RuntimeError):
        torch.ops.aten.cumsum.default(torch.zeros(3), axis=0)
