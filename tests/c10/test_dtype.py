"""The dtype records: properties, names, aliases, pickling; checked against torch 2.13.

The first half needs no torch (expected values were read from torch 2.13); the
differential tests at the end compare every dtype with real torch when it is importable.
"""
import copy
import pickle

import pytest

import glasstorch as gt
from glasstorch.c10 import dtype as dtypes
from glasstorch.c10.dtype import scalar_type_name

# name: (is_floating_point, is_complex, is_signed, itemsize, abbr, to_real, to_complex,
#        c10 ScalarType name); to_complex None means torch raises.
EXPECTED = {
    "bool": (False, False, False, 1, "b8", "bool", None, "Bool"),
    "uint8": (False, False, False, 1, "u8", "uint8", None, "Byte"),
    "int8": (False, False, True, 1, "i8", "int8", None, "Char"),
    "int16": (False, False, True, 2, "i16", "int16", None, "Short"),
    "int32": (False, False, True, 4, "i32", "int32", None, "Int"),
    "int64": (False, False, True, 8, "i64", "int64", None, "Long"),
    "uint16": (False, False, False, 2, "u16", "uint16", None, "UInt16"),
    "uint32": (False, False, False, 4, "u32", "uint32", None, "UInt32"),
    "uint64": (False, False, False, 8, "u64", "uint64", None, "UInt64"),
    "float16": (True, False, True, 2, "f16", "float16", "complex32", "Half"),
    "bfloat16": (True, False, True, 2, "bf16", "bfloat16", "complex64", "BFloat16"),
    "float32": (True, False, True, 4, "f32", "float32", "complex64", "Float"),
    "float64": (True, False, True, 8, "f64", "float64", "complex128", "Double"),
    "complex32": (False, True, True, 4, "c32", "float16", "complex32", "ComplexHalf"),
    "complex64": (False, True, True, 8, "c64", "float32", "complex64", "ComplexFloat"),
    "complex128": (False, True, True, 16, "c128", "float64", "complex128", "ComplexDouble"),
    "float8_e4m3fn": (True, False, True, 1, "f8e4m3fn", "float8_e4m3fn", None, "Float8_e4m3fn"),
    "float8_e5m2": (True, False, True, 1, "f8e5m2", "float8_e5m2", None, "Float8_e5m2"),
    "float8_e4m3fnuz": (True, False, True, 1, "f8e4m3fnuz", "float8_e4m3fnuz", None,
                        "Float8_e4m3fnuz"),
    "float8_e5m2fnuz": (True, False, True, 1, "f8e5m2fnuz", "float8_e5m2fnuz", None,
                        "Float8_e5m2fnuz"),
    "float8_e8m0fnu": (True, False, False, 1, "f8e8m0fnu", "float8_e8m0fnu", None,
                       "Float8_e8m0fnu"),
}
ALIASES = {"float": "float32", "double": "float64", "half": "float16", "cfloat": "complex64",
           "cdouble": "complex128", "chalf": "complex32", "long": "int64", "int": "int32",
           "short": "int16"}


def name_of(t):
    return repr(t).split(".", 1)[1]


def test_every_dtype_is_listed():
    assert sorted(name_of(t) for t in dtypes.EVERY_DTYPE) == sorted(EXPECTED)
    assert dtypes.complex32 not in dtypes.ALL_DTYPES
    assert all(t._np is not None for t in dtypes.ALL_DTYPES)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_properties(name):
    fp, cx, signed, size, abbr, real, cplx, c10_name = EXPECTED[name]
    t = getattr(dtypes, name)
    assert repr(t) == str(t) == f"torch.{name}"
    assert (t.is_floating_point, t.is_complex, t.is_signed) == (fp, cx, signed)
    assert t.itemsize == size and type(t.itemsize) is int
    assert t.abbr == abbr
    assert t.to_real() is getattr(dtypes, real)
    assert scalar_type_name(t) == c10_name
    if cplx is None:
        with pytest.raises(RuntimeError, match=f"^Unknown Complex ScalarType for {c10_name}$"):
            t.to_complex()
    else:
        assert t.to_complex() is getattr(dtypes, cplx)


def test_itemsize_matches_numpy_storage():
    for t in dtypes.ALL_DTYPES:
        assert t.itemsize == t._np.itemsize


@pytest.mark.parametrize("alias", sorted(ALIASES))
def test_aliases_are_the_same_object(alias):
    assert getattr(dtypes, alias) is getattr(dtypes, ALIASES[alias])
    assert repr(getattr(dtypes, alias)) == f"torch.{ALIASES[alias]}"


def test_namespace_exports_the_same_objects():
    for name in list(EXPECTED) + list(ALIASES):
        if hasattr(gt, name):
            assert getattr(gt, name) is getattr(dtypes, name)


@pytest.mark.parametrize("t", dtypes.EVERY_DTYPE, ids=name_of)
def test_pickle_and_copy_keep_identity(t):
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        assert pickle.loads(pickle.dumps(t, protocol)) is t
    assert copy.copy(t) is t and copy.deepcopy(t) is t
    assert pickle.loads(pickle.dumps([t, t])) == [t, t]


def test_dtypes_are_read_only_and_not_constructible():
    with pytest.raises(AttributeError,
                       match="^attribute 'is_signed' of 'torch.dtype' objects is not writable$"):
        dtypes.float32.is_signed = False
    with pytest.raises(AttributeError, match="^'torch.dtype' object has no attribute 'foo'$"):
        dtypes.float32.foo = 1
    with pytest.raises(TypeError, match="^cannot create 'torch.dtype' instances$"):
        dtypes.dtype()
    assert dtypes.float32.is_signed is True


def test_equality_and_hashing():
    assert dtypes.float == dtypes.float32 and dtypes.float32 != dtypes.float64
    assert dtypes.float32 != "float32"
    assert len({dtypes.float, dtypes.float32, dtypes.double}) == 2


# --- differential tests against real torch -------------------------------------------

@pytest.mark.parametrize("t", dtypes.EVERY_DTYPE, ids=name_of)
def test_matches_torch(t):
    torch = pytest.importorskip("torch")
    ref = getattr(torch, name_of(t))
    assert repr(t) == repr(ref) and str(t) == str(ref)
    for attribute in ("is_floating_point", "is_complex", "is_signed", "itemsize", "abbr"):
        assert getattr(t, attribute) == getattr(ref, attribute), attribute
    assert name_of(t.to_real()) == name_of(ref.to_real())
    try:
        expected = name_of(ref.to_complex())
    except RuntimeError as error:
        with pytest.raises(RuntimeError) as ours:
            t.to_complex()
        assert str(ours.value) == str(error)
    else:
        assert name_of(t.to_complex()) == expected


def test_aliases_match_torch():
    torch = pytest.importorskip("torch")
    for alias, name in ALIASES.items():
        assert getattr(torch, alias) is getattr(torch, name)
