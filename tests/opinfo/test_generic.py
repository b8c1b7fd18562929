"""The generic operator tests: every OpInfo entry through every subsystem that exists.

Each test reads only the entry (see README.md): adding an entry adds its checks here.
"""
import re
import warnings

import numpy as np
import pytest

import glasstorch as gt
from glasstorch.aten.registry import DECLARATIONS
from glasstorch.aten.schema import SchemaKind
from glasstorch.c10.tensor_impl import make_tensor

from .convert import (assert_unchanged, assert_values, dtype_name, dtype_of, numpy_dtype,
                      snapshot, to_meta, to_numpy)
from .core import (SUBSYSTEM_DTYPES, about, cases, contiguous_copy, database, error_cases,
                   noncontiguous, ops)

# torch warns here too; test_differential compares the warnings themselves.
pytestmark = pytest.mark.filterwarnings("ignore:Casting complex values to real")

# Declarations with no entry of their own, each with the reason. Keep this short.
NOT_COVERED: dict = {
    "_multi_tensor_sgd_": "an optimizer's float32 group step writing its arguments and "
                          "returning nothing: held bit for bit to the readable optimizer "
                          "form by tests/aten/native/optim/test_steps.py",
    "_multi_tensor_adam_": "as _multi_tensor_sgd_",
    "_foreach_zero_": "writes a list of tensors and returns nothing: against torch in "
                      "tests/aten/native/optim/test_foreach.py",
}


def _pieces(value) -> list:
    """The results of an op returning several tensors, or its one result, as a list."""
    return list(value) if isinstance(value, (tuple, list)) else [value]


def _expected(op, sample):
    """The reference result, copied so that later writes to the inputs cannot change it."""
    expected = op.reference(sample)
    if isinstance(expected, (tuple, list)):
        return [np.array(e) for e in expected]
    return np.array(expected) if isinstance(expected, np.ndarray) else expected


def _check(op, result, expected) -> None:
    """`result` (a tensor, a Python value, or a sequence of them) against the
    reference's answer: type or dtype, shape, and values (unless left undefined)."""
    if isinstance(result, (tuple, list)):
        assert len(result) == len(expected), f"{len(result)} results, not {len(expected)}"
        for one, wanted in zip(result, expected):
            _check(op, one, wanted)
        return
    if not isinstance(result, gt.Tensor):
        assert type(result) is type(expected), f"{type(result)} != {type(expected)}"
        assert result == expected or (result != result and expected != expected)
        return
    assert result.dtype is dtype_of(expected), f"dtype {result.dtype} != {expected.dtype}"
    assert tuple(result.shape) == expected.shape, f"{tuple(result.shape)} != {expected.shape}"
    if op.values_defined:
        assert_values(result, expected, dtype_name(result.dtype))


def _same(result, expected) -> None:
    """Two glasstorch results agree: dtype, shape and values."""
    for one, wanted in zip(_pieces(result), _pieces(expected), strict=True):
        if isinstance(wanted, gt.Tensor):
            assert one.dtype is wanted.dtype
            assert_values(one, wanted, dtype_name(one.dtype))
        else:
            assert one == wanted


@ops()
def test_values(op):
    """The primary variant against the reference: values, shape and dtype."""
    for dtype, sample in cases(op):
        with about(dtype, sample):
            expected = _expected(op, sample)
            _check(op, op(sample), expected)


def _aten_variant(op) -> str:
    return "ops.aten." + (op.name if "." in op.name else op.name + ".default")


@ops()
def test_variants(op):
    """Every other spelling (method, function, ``torch.ops.aten.<name>.<overload>``)
    gives the primary variant's result."""
    for variant in op.variants[1:] + (_aten_variant(op),):
        for dtype, sample in cases(op, SUBSYSTEM_DTYPES):
            with about(dtype, sample):
                expected = _expected(op, sample)
                _check(op, op.call(variant, sample), expected)


@ops(lambda op: not (op.layout_sensitive or op.is_factory))
def test_noncontiguous(op):
    """Strided copies of the inputs give the same results as contiguous copies."""
    for dtype, sample in cases(op, SUBSYSTEM_DTYPES):
        with about(dtype, sample):
            dense = sample.map(contiguous_copy)
            strided = sample.map(noncontiguous)
            _same(op(strided), op(dense))
            for a, b in zip(strided.tensors(), dense.tensors()):
                assert_values(a, b, exact=True)


def _category(dtype) -> int:
    """bool < integers < floating < complex: torch writes a result into a dtype of its
    own category or a higher one, never a lower one (`torch.can_cast`)."""
    if dtype is gt.bool:
        return 0
    if dtype.is_complex:
        return 3
    return 2 if dtype.is_floating_point else 1


def _uncastable(dtype):
    """A dtype that `dtype` results may not be written into (None for bool)."""
    return {1: gt.bool, 2: gt.int64, 3: gt.float32}.get(_category(dtype))


@ops(lambda op: op.out is not None)
def test_out(op):
    for dtype, sample in cases(op, SUBSYSTEM_DTYPES):
        with about(dtype, sample):
            _check_out(op, sample)


def _check_out(op, sample) -> None:
    """Right shape: written and returned; wrong shape: resized, with a warning unless
    empty (or a factory's); a dtype the result can't be cast to: refused, untouched."""
    expected = op(sample)
    shape, result_dtype = tuple(expected.shape), expected.dtype
    reference = to_numpy(expected)

    out = gt.empty(shape, dtype=result_dtype)
    assert op.call(op.out, sample, out=out) is out
    assert out._version > 0
    _check(op, out, reference)

    for size, warns in ((expected.numel() + 1, op.out_warns_on_resize), (0, False)):
        out = gt.empty((size,), dtype=result_dtype)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            op.call(op.out, sample, out=out)
        resized = [w for w in caught if "An output with one or more elements was resized"
                   in str(w.message) and w.category is UserWarning]
        assert len(resized) == warns, f"resizing an out of size {size} warned {len(resized)}x"
        _check(op, out, reference)

    bad = _uncastable(result_dtype)
    if (op.is_factory or op.out_sets_dtype) and sample.kwargs.get("dtype") is None:
        bad = None                          # the factory takes its dtype from `out`
    if bad is not None:
        out = gt.zeros(shape, dtype=bad)
        with pytest.raises((RuntimeError, TypeError)):    # cat's refusal is a TypeError
            op.call(op.out, sample, out=out)
        assert tuple(out.shape) == shape and not to_numpy(out).any()


def _overlapping(t) -> bool:
    """Several elements share one memory location (an expanded dim)."""
    return any(stride == 0 and size > 1 for size, stride in zip(t.shape, t.stride()))


def _fits(expected, self) -> bool:
    """Whether a result may be written into `self`: same shape, castable dtype."""
    return expected.shape == tuple(self.shape) and \
        _category(dtype_of(expected)) <= _category(self.dtype)


@ops(lambda op: op.inplace is not None or op.mutates_input)
def test_inplace(op):
    """Values as the functional op (or reference), returns self, one version bump; a
    result self cannot hold (broadcast shape, wider dtype) raises and writes nothing
    (unless the op rewrites self's geometry: `inplace_view`). Overlapping selves are
    left to the error inputs (torch refuses some, not all)."""
    for dtype, sample in cases(op, SUBSYSTEM_DTYPES):
        if not _overlapping(sample.input):
            with about(dtype, sample):
                _check_inplace(op, sample)


def _check_inplace(op, sample) -> None:
    variant = op.inplace or op.variants[0]
    self = sample.input
    expected = to_numpy(op(sample)) if op.inplace else _expected(op, sample)
    version = self._version
    if not (op.inplace_view or _fits(expected, self)):
        before = snapshot(sample)
        with pytest.raises(RuntimeError):
            op.call(variant, sample)
        assert_unchanged(before, sample)
        return
    assert op.call(variant, sample) is self
    assert self._version == version + 1
    assert_values(self, expected.astype(numpy_dtype(self.dtype)), dtype_name(self.dtype))


def _meta_sample(op, sample):
    meta = sample.map(to_meta)
    if op.is_factory:
        meta.kwargs["device"] = "meta"
    return meta


@ops()
def test_meta(op):
    """The same call on meta tensors describes the CPU result exactly."""
    for dtype, sample in cases(op, SUBSYSTEM_DTYPES):
        with about(dtype, sample):
            meta_sample = _meta_sample(op, sample)
            expected = _pieces(op(sample))
            for result, wanted in zip(_pieces(op(meta_sample)), expected, strict=True):
                assert result.device.type == "meta"
                assert tuple(result.shape) == tuple(wanted.shape)
                assert result.dtype is wanted.dtype
                assert result.stride() == wanted.stride()
                if op.is_view:
                    assert result.storage_offset() == wanted.storage_offset()


def _fill_value(view):
    return not to_numpy(view).flat[0] if view.dtype is gt.bool else 11


@ops(lambda op: op.is_view)
def test_view(op):
    """Shares storage, `_base` and version counter; writes show through to the base."""
    for dtype, sample in cases(op, SUBSYSTEM_DTYPES):
        with about(dtype, sample):
            _check_view(op, sample)


def _check_view(op, sample) -> None:
    x = sample.input
    base = x._base if x._base is not None else x
    results = _pieces(op(sample))
    for result in results:
        assert result.untyped_storage().data_ptr() == x.untyped_storage().data_ptr()
        assert result._base is (base if op.view_has_base else None)
    for i, result in enumerate(results):
        value = _fill_value(result) if result.numel() else None
        if value is None or (to_numpy(result) == value).all():
            continue
        version = x._version
        result.fill_(value)
        assert x._version == result._version == version + 1
        assert (to_numpy(result) == value).all()
        reread = _pieces(op.reference(sample))[i]          # read from the base's memory
        assert_values(result, reread, exact=True)
        return                                              # one write proves the alias


@error_cases()
def test_errors(op, error):
    """The declared exception and message; every input left as it was."""
    before = snapshot(error.sample)
    with pytest.raises(error.error_type, match=error.match):
        op(error.sample)
    assert_unchanged(before, error.sample)


def test_every_declaration_has_an_opinfo():
    covered = {name for op in database() for name in (op.name,) + op.covers}
    missing = sorted(set(DECLARATIONS) - covered - set(NOT_COVERED))
    assert not missing, f"operators without an OpInfo entry: {missing}"
    unknown = sorted(covered - set(DECLARATIONS))
    assert not unknown, f"OpInfo entries for undeclared operators: {unknown}"


@pytest.mark.parametrize("op", database(), ids=str)
def test_entry_matches_declaration(op):
    """The flags say what the declaration has: out=, in-place, view."""
    declaration = DECLARATIONS[op.name]
    kinds = set(declaration.overloads)
    assert (op.out is not None) == (SchemaKind.out in kinds)
    assert op.mutates_input == (kinds == {SchemaKind.inplace})
    assert (op.inplace is not None) == (SchemaKind.inplace in kinds and
                                        SchemaKind.functional in kinds)
    assert op.is_view == (declaration.kind == "view")


def _has_fast_path(op) -> bool:
    declaration = DECLARATIONS.get(op.name)
    return declaration is not None and any(o.fast_paths for o in declaration.overloads.values())


def _twin(sample):
    """The sample with every tensor over a copy of its storage, in the same geometry
    (tensors that share a storage share its copy)."""
    copies = {}

    def twin(t):
        storage = copies.setdefault(id(t._storage), (t._storage, t._storage.clone()))[1]
        return make_tensor(storage, t._size, t._stride, t._offset, t._dtype)
    return sample.map(twin)


def _identical(result, general, views: bool = True, values: bool = True) -> None:
    """The same bits (`values`: unless the operator leaves them undefined, as `empty`),
    dtype, geometry and (`views`) view-ness (Note [Fast paths])."""
    for one, wanted in zip(_pieces(result), _pieces(general), strict=True):
        if not isinstance(wanted, gt.Tensor):
            assert one == wanted or (one != one and wanted != wanted)
            continue
        assert (one.dtype, one.shape, one.stride(), one.storage_offset()) == \
            (wanted.dtype, wanted.shape, wanted.stride(), wanted.storage_offset())
        assert not views or (one._base is None) == (wanted._base is None)
        assert not values or to_numpy(one).tobytes() == to_numpy(wanted).tobytes()


@ops(_has_fast_path)
def test_fast_paths(op):
    """Every sample gives the same result with the fast paths as with the general kernels
    (``dispatch_trace(fast_paths=False)``): bits, dtype, strides, view or not; the
    in-place twin too, writing the same bits with one version bump."""
    for dtype, sample in cases(op, SUBSYSTEM_DTYPES):
        with about(dtype, sample):
            twin = _twin(sample)
            result = op(sample)
            with gt.dispatch_trace(fast_paths=False):
                general = op(twin)
            _identical(result, general, values=op.values_defined)
            if op.inplace and not _overlapping(sample.input) and \
                    _fits(to_numpy(result), sample.input):
                _identical_in_place(op, sample)


def _identical_in_place(op, sample) -> None:
    twin = _twin(sample)
    versions = sample.input._version, twin.input._version
    try:
        op.call(op.inplace, sample)
    except RuntimeError as error:              # a refusal is the general kernel's too
        with pytest.raises(RuntimeError, match=re.escape(str(error))):
            with gt.dispatch_trace(fast_paths=False):
                op.call(op.inplace, twin)
        return
    with gt.dispatch_trace(fast_paths=False):
        op.call(op.inplace, twin)
    _identical(sample.input, twin.input, views=False)
    assert (sample.input._version - versions[0], twin.input._version - versions[1]) == (1, 1)

