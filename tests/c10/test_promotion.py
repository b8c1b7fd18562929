"""Type promotion against torch 2.13: promote_types, can_cast, result_type, default dtype.

The first part needs no torch: its expected values were read from torch 2.13. The
differential part (`*_matches_torch`) compares every pair of dtypes, and a grid of
tensor / 0-dim tensor / scalar operands, with real torch when it is importable.
"""
import itertools
import warnings

import numpy as np
import pytest

from glasstorch.c10 import dtype as dtypes
from glasstorch.c10 import promotion
from glasstorch.c10.promotion import (can_cast, default_complex_dtype, get_default_dtype,
                                      promote_types, result_type, result_type_of,
                                      result_type_with_scalar, scalar_dtype, set_default_dtype)

D = dtypes
ALL = dtypes.EVERY_DTYPE


class FakeTensor:
    """The least a tensor needs for promotion: a dtype and a size."""

    def __init__(self, dtype, ndim=1):
        self._dtype = dtype
        self._size = (2,) * ndim


def name_of(t):
    return repr(t).split(".", 1)[1]


@pytest.fixture
def default_dtype():
    """Lets a test change the default dtype; restores float32 afterwards."""
    yield set_default_dtype
    set_default_dtype(D.float32)


# --- promote_types, without torch -----------------------------------------------------

PAIRS = [
    (D.bool, D.bool, D.bool), (D.bool, D.uint8, D.uint8), (D.bool, D.int8, D.int8),
    (D.uint8, D.int8, D.int16), (D.uint8, D.int16, D.int16), (D.int8, D.int64, D.int64),
    (D.int32, D.int16, D.int32), (D.int64, D.float16, D.float16),
    (D.uint8, D.bfloat16, D.bfloat16), (D.float16, D.bfloat16, D.float32),
    (D.bfloat16, D.float64, D.float64), (D.float32, D.float16, D.float32),
    (D.int64, D.complex64, D.complex64), (D.float64, D.complex64, D.complex128),
    (D.bool, D.complex128, D.complex128), (D.float16, D.complex32, D.complex32),
    (D.bfloat16, D.complex32, D.complex64), (D.float32, D.complex32, D.complex64),
    (D.float64, D.complex32, D.complex128), (D.int64, D.complex32, D.complex32),
    (D.complex32, D.complex64, D.complex64), (D.complex64, D.complex128, D.complex128),
    (D.uint16, D.uint16, D.uint16), (D.uint32, D.float16, D.float16),
    (D.uint64, D.bfloat16, D.bfloat16), (D.float64, D.uint64, D.float64),
    (D.uint32, D.float32, D.float32), (D.float8_e4m3fn, D.float8_e4m3fn, D.float8_e4m3fn),
    (D.float8_e8m0fnu, D.float8_e8m0fnu, D.float8_e8m0fnu),
]

UNSIGNED_ERROR = ("Promotion for uint16, uint32, uint64 types is not supported, "
                  "attempted to promote {} and {}")
FLOAT8_ERROR = "Promotion for Float8 Types is not supported, attempted to promote {} and {}"
ERRORS = [
    (D.bool, D.uint16, UNSIGNED_ERROR.format("Bool", "UInt16")),
    (D.uint8, D.uint32, UNSIGNED_ERROR.format("Byte", "UInt32")),
    (D.uint64, D.int64, UNSIGNED_ERROR.format("UInt64", "Long")),
    (D.uint16, D.uint32, UNSIGNED_ERROR.format("UInt16", "UInt32")),
    (D.uint16, D.complex64, UNSIGNED_ERROR.format("UInt16", "ComplexFloat")),
    (D.complex32, D.uint64, UNSIGNED_ERROR.format("ComplexHalf", "UInt64")),
    (D.float8_e5m2, D.float32, FLOAT8_ERROR.format("Float8_e5m2", "Float")),
    (D.int8, D.float8_e4m3fn, FLOAT8_ERROR.format("Char", "Float8_e4m3fn")),
    (D.uint16, D.float8_e4m3fnuz, FLOAT8_ERROR.format("UInt16", "Float8_e4m3fnuz")),
    (D.float8_e4m3fn, D.float8_e5m2, FLOAT8_ERROR.format("Float8_e4m3fn", "Float8_e5m2")),
]


@pytest.mark.parametrize("a, b, expected", PAIRS)
def test_promote_types(a, b, expected):
    assert promote_types(a, b) is expected
    assert promote_types(b, a) is expected


@pytest.mark.parametrize("a, b, message", ERRORS)
def test_promote_types_errors(a, b, message):
    with pytest.raises(RuntimeError) as error:
        promote_types(a, b)
    assert str(error.value) == message


def test_promotion_table_is_symmetric_and_complete():
    table = promotion.PROMOTION_TABLE
    for a, b in itertools.product(ALL, ALL):
        assert ((a, b) in table) == ((b, a) in table)
        if (a, b) in table:
            assert table[a, b] is table[b, a] is promote_types(a, b)
    assert len(table) == 201        # 21 * 21 pairs, 240 of which torch refuses


@pytest.mark.parametrize("function, args, message", [
    (promote_types, ("x", D.float32), "promote_types(): argument 'type1' (position 1) must be "
                                      "torch.dtype, not str"),
    (promote_types, (D.float32, None), "promote_types(): argument 'type2' (position 2) must be "
                                       "torch.dtype, not NoneType"),
    (promote_types, (D.float32, []), "promote_types(): argument 'type2' (position 2) must be "
                                     "torch.dtype, not list"),
    (can_cast, (1, D.float32), "can_cast(): argument 'from_' (position 1) must be torch.dtype, "
                               "not int"),
    (can_cast, (D.float32, "a"), "can_cast(): argument 'to' (position 2) must be torch.dtype, "
                                 "not str"),
])
def test_arguments_must_be_dtypes(function, args, message):
    with pytest.raises(TypeError) as error:
        function(*args)
    assert str(error.value) == message


# --- can_cast, without torch ------------------------------------------------------------

@pytest.mark.parametrize("from_, to, expected", [
    (D.bool, D.bool, True), (D.bool, D.float8_e5m2, True), (D.uint8, D.bool, False),
    (D.int64, D.int8, True), (D.uint64, D.float16, True), (D.float64, D.int64, False),
    (D.float64, D.float16, True), (D.float32, D.complex32, True), (D.complex64, D.float64, False),
    (D.complex128, D.complex32, True), (D.float8_e4m3fn, D.float64, True),
    (D.float8_e4m3fn, D.uint8, False), (D.complex64, D.bool, False),
])
def test_can_cast(from_, to, expected):
    assert can_cast(from_, to) is expected


# --- scalars and result_type, without torch ---------------------------------------------

@pytest.mark.parametrize("value, expected", [
    (True, D.bool), (3, D.int64), (1.5, D.float32), (1j, D.complex64),
    (np.int8(3), D.int64), (np.uint64(3), D.int64), (np.float64(1.5), D.float32),
    (np.float16(1.5), D.float32), (np.bool_(True), D.float32), (np.complex64(1j), D.float32),
    (np.complex128(1j), D.complex64), (np.longdouble(1), D.float32),
])
def test_scalar_dtype(value, expected):
    assert scalar_dtype(value) is expected


@pytest.mark.parametrize("value, error, message", [
    ("x", TypeError, "str"), (None, TypeError, "NoneType"), (np.array(1.0), TypeError, "ndarray"),
    (np.timedelta64(1), TypeError, "cannot be interpreted as an integer"),
    (2**64, OverflowError, "int too big to convert"),
    (-2**63 - 1, OverflowError, "can't convert negative int to unsigned"),
])
def test_scalar_dtype_errors(value, error, message):
    with pytest.raises(error, match=message):
        scalar_dtype(value)


def T(dtype):
    return FakeTensor(dtype, 1)


def Z(dtype):
    return FakeTensor(dtype, 0)


RESULT_TYPES = [
    ((T(D.int8), 1000), D.int8), ((T(D.int8), 1.5), D.float32), ((T(D.int8), 1j), D.complex64),
    ((T(D.bool), 1), D.int64), ((T(D.bool), True), D.bool), ((T(D.uint8), -1), D.uint8),
    ((T(D.float16), 1.5), D.float16), ((T(D.float16), 1j), D.complex32),
    ((T(D.bfloat16), 1j), D.complex64), ((T(D.uint16), 1), D.uint16),
    ((T(D.uint16), 1.5), D.float32), ((T(D.uint16), 1j), D.complex64),
    ((T(D.int8), np.bool_(True)), D.float32), ((T(D.int8), np.complex64(1j)), D.float32),
    ((T(D.int8), np.complex128(1j)), D.complex64), ((T(D.int8), np.int64(7)), D.int8),
    ((T(D.int8), Z(D.float64)), D.float64), ((T(D.float16), Z(D.float64)), D.float16),
    ((T(D.int32), Z(D.int64)), D.int32), ((T(D.bool), Z(D.uint8)), D.uint8),
    ((T(D.float16), Z(D.complex128)), D.complex32), ((Z(D.float64), T(D.int64)), D.float64),
    ((Z(D.uint8), Z(D.int8)), D.int16), ((Z(D.uint8), 1.5), D.float32),
    ((T(D.uint16), Z(D.int8)), D.uint16), ((T(D.int8), Z(D.uint16)), D.int8),
    ((T(D.uint16), Z(D.complex64)), D.complex64), ((T(D.complex64), Z(D.float8_e5m2)), D.complex64),
    ((T(D.float8_e4m3fn), 1.0), D.float8_e4m3fn),
    ((T(D.float8_e4m3fn), Z(D.int32)), D.float8_e4m3fn),
    ((1, 2), D.int64), ((1, 2.0), D.float32), ((True, False), D.bool), ((1j, 1), D.complex64),
    ((T(D.int8), Z(D.float16), Z(D.int32)), D.float16),
    ((Z(D.int8), Z(D.float16), Z(D.bfloat16)), D.float32),
]


@pytest.mark.parametrize("operands, expected", RESULT_TYPES)
def test_result_type(operands, expected):
    assert result_type(*operands) is expected
    assert result_type(*reversed(operands)) is expected


@pytest.mark.parametrize("operands, message", [
    ((T(D.bool), Z(D.uint16)), UNSIGNED_ERROR.format("Bool", "UInt16")),
    ((T(D.int32), Z(D.float8_e4m3fn)), FLOAT8_ERROR.format("Int", "Float8_e4m3fn")),
    ((T(D.uint16), Z(D.float8_e5m2)), FLOAT8_ERROR.format("UInt16", "Float8_e5m2")),
    ((T(D.float8_e4m3fn), 1j), "Unknown Complex ScalarType for Float8_e4m3fn"),
    ((T(D.float8_e5m2), Z(D.complex64)), "Unknown Complex ScalarType for Float8_e5m2"),
    ((Z(D.float8_e5m2), Z(D.complex64)), FLOAT8_ERROR.format("Float8_e5m2", "ComplexFloat")),
    ((T(D.int8), Z(D.uint16), Z(D.int8)), UNSIGNED_ERROR.format("UInt16", "Char")),
])
def test_result_type_errors(operands, message):
    with pytest.raises(RuntimeError) as error:
        result_type(*operands)
    assert str(error.value) == message


def test_result_type_bad_operands():
    with pytest.raises(TypeError):
        result_type()
    with pytest.raises(TypeError):
        result_type(T(D.int8), "x")
    with pytest.raises(TypeError):
        result_type(T(D.int8), np.ones(2))


def test_result_type_accepts_dim_and_dtype_objects():
    class Duck:
        dtype = D.int8

        def __init__(self, ndim):
            self.ndim = ndim

        def dim(self):
            return self.ndim
    assert result_type(Duck(1), Duck(0), 1.5) is D.float32
    assert result_type(Duck(1), FakeTensor(D.int64, 0)) is D.int8
    assert result_type(Duck(0), FakeTensor(D.int64, 0)) is D.int64


SCALARS = [True, 3, 1.5, 1j, np.bool_(False), np.int32(2), np.uint8(1), np.float32(2.5),
           np.float64(2.5), np.complex64(1j), np.complex128(1j)]


def test_fast_paths_agree_with_result_type(default_dtype):
    for default in (D.float32, D.float64, D.float16, D.bfloat16):
        default_dtype(default)
        for a, b in itertools.product(ALL, ALL):
            for a0, b0 in itertools.product((False, True), repeat=2):
                _assert_same_outcome(
                    lambda: result_type_of(a, a0, b, b0),
                    lambda: result_type(FakeTensor(a, 1 - a0), FakeTensor(b, 1 - b0)))
        for a, scalar in itertools.product(ALL, SCALARS):
            _assert_same_outcome(lambda: result_type_with_scalar(a, scalar),
                                 lambda: result_type(FakeTensor(a), scalar))


def _assert_same_outcome(fast, slow):
    try:
        expected = slow()
    except RuntimeError as error:
        with pytest.raises(RuntimeError) as ours:
            fast()
        assert str(ours.value) == str(error)
    else:
        assert fast() is expected


# --- the default dtype, without torch ---------------------------------------------------

@pytest.mark.parametrize("default, complex_default", [
    (D.float32, D.complex64), (D.float64, D.complex128), (D.float16, D.complex32),
    (D.bfloat16, D.complex64)])
def test_set_default_dtype(default_dtype, default, complex_default):
    default_dtype(default)
    assert get_default_dtype() is default
    assert default_complex_dtype() is complex_default
    assert scalar_dtype(1.5) is default and scalar_dtype(1j) is complex_default
    assert result_type(T(D.int8), 1.5) is default
    assert result_type(T(D.int8), 1j) is complex_default
    assert result_type_with_scalar(D.bool, np.float32(1)) is default
    assert result_type(T(D.float32), 1.5) is D.float32
    assert result_type(1, 1.5) is default


@pytest.mark.parametrize("value, message", [
    (D.int32, "^only floating-point types are supported as the default type$"),
    (D.complex64, "^only floating-point types are supported as the default type$"),
    (D.bool, "^only floating-point types are supported as the default type$"),
    (D.float8_e5m2, "^couldn't find storage object Float8_e5m2Storage$"),
    ("float32", "^invalid dtype object: only floating-point types are supported as the default"),
    (None, "^invalid dtype object: only floating-point types are supported as the default"),
    (np.float64, "^invalid dtype object: only floating-point types are supported as the default"),
])
def test_set_default_dtype_errors(default_dtype, value, message):
    default_dtype(D.float64)
    with pytest.raises(TypeError, match=message):
        set_default_dtype(value)
    assert get_default_dtype() is D.float64


def test_set_default_dtype_is_positional_only():
    with pytest.raises(TypeError):
        set_default_dtype(d=D.float32)
    with pytest.raises(TypeError):
        set_default_dtype()


# --- differential tests against real torch ----------------------------------------------

def _torch():
    return pytest.importorskip("torch")


def _outcome(function, *args):
    """('ok', dtype name) or (exception type name, message) of `function(*args)`."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return "ok", name_of(function(*args))
        except Exception as error:     # noqa: BLE001 - the type itself is compared
            return type(error).__name__, str(error)


def test_promote_types_matches_torch_for_every_pair():
    torch = _torch()
    for a, b in itertools.product(ALL, ALL):
        ours = _outcome(promote_types, a, b)
        theirs = _outcome(torch.promote_types, getattr(torch, name_of(a)),
                          getattr(torch, name_of(b)))
        assert ours == theirs, (a, b)


def test_can_cast_matches_torch_for_every_pair():
    torch = _torch()
    for a, b in itertools.product(ALL, ALL):
        assert can_cast(a, b) == torch.can_cast(getattr(torch, name_of(a)),
                                                getattr(torch, name_of(b))), (a, b)


def _torch_tensor(torch, dtype, ndim):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")     # complex32 is "experimental"
        return torch.empty((0,) if ndim else (), dtype=getattr(torch, name_of(dtype)))


def test_result_type_of_two_tensors_matches_torch():
    torch = _torch()
    ref = {(t, n): _torch_tensor(torch, t, n) for t in ALL for n in (0, 1)}
    for a, b in itertools.product(ALL, ALL):
        for na, nb in itertools.product((0, 1), repeat=2):
            ours = _outcome(result_type, FakeTensor(a, na), FakeTensor(b, nb))
            theirs = _outcome(torch.result_type, ref[a, na], ref[b, nb])
            assert ours == theirs, (a, na, b, nb)


@pytest.mark.parametrize("default", [D.float32, D.float64, D.float16, D.bfloat16], ids=name_of)
def test_result_type_with_scalars_matches_torch(default_dtype, default):
    torch = _torch()
    default_dtype(default)
    torch.set_default_dtype(getattr(torch, name_of(default)))
    try:
        for t, ndim, scalar in itertools.product(ALL, (0, 1), SCALARS):
            ref = _torch_tensor(torch, t, ndim)
            assert _outcome(result_type, FakeTensor(t, ndim), scalar) == \
                _outcome(torch.result_type, ref, scalar), (t, ndim, scalar)
            assert _outcome(result_type, scalar, FakeTensor(t, ndim)) == \
                _outcome(torch.result_type, scalar, ref), (scalar, t, ndim)
        for a, b in itertools.product(SCALARS, SCALARS):
            assert _outcome(result_type, a, b) == _outcome(torch.result_type, a, b), (a, b)
    finally:
        torch.set_default_dtype(torch.float32)


def _torch_common_dtype(torch, operands):
    """The dtype torch's TensorIterator computes for addcmul over three tensors."""
    outcome = _outcome(lambda *tensors: torch.addcmul(*tensors).dtype, *operands)
    kernel_missing = outcome[0] in ("RuntimeError", "NotImplementedError") and \
        "not implemented for '" in outcome[1]
    if kernel_missing:
        c10_name = outcome[1].split("'")[-2]        # the kernel ran in the common dtype
        names = {dtypes.scalar_type_name(t): name_of(t) for t in ALL}
        return "ok", names[c10_name]
    return outcome


# Every dtype but three of the five float8s and uint32, which behave as their siblings.
THREE_TENSOR_DTYPES = [t for t in ALL if t not in (D.float8_e5m2, D.float8_e4m3fnuz,
                                                     D.float8_e5m2fnuz, D.uint32)]


@pytest.mark.parametrize("ndims", [(1, 0, 0), (1, 1, 0), (0, 0, 1)])
def test_result_type_of_three_tensors_matches_torch(ndims):
    torch = _torch()
    ref = {(t, n): _torch_tensor(torch, t, n) for t in ALL for n in (0, 1)}
    for triple in itertools.product(THREE_TENSOR_DTYPES, repeat=3):
        ours = _outcome(result_type, *(FakeTensor(t, n) for t, n in zip(triple, ndims)))
        theirs = _torch_common_dtype(torch, [ref[t, n] for t, n in zip(triple, ndims)])
        assert ours == theirs, (triple, ndims)


def test_set_default_dtype_matches_torch():
    torch = _torch()
    try:
        for value in ALL:
            ours = _outcome(lambda v: (set_default_dtype(v), get_default_dtype())[1], value)
            theirs = _outcome(lambda v: (torch.set_default_dtype(v), torch.get_default_dtype())[1],
                              getattr(torch, name_of(value)))
            assert ours == theirs, value
    finally:
        set_default_dtype(D.float32)
        torch.set_default_dtype(torch.float32)
