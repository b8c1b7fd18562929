"""Every OpInfo sample through real torch 2.13 as well: the same values, dtype, sizes,
strides, storage offset, aliasing, warnings, and the same exception type and message.

Skipped when torch is not importable. Inputs reach torch with their exact geometry
(`convert.to_torch`: same bytes, same strides and storage offset).
"""
import re
import warnings

import pytest

import glasstorch as gt

from .convert import assert_values, dtype_name, to_meta, to_numpy, to_torch
from .core import (SUBSYSTEM_DTYPES, SampleInput, about, cases, error_cases, known_bug_cases,
                   ops)

torch = pytest.importorskip("torch")


@pytest.fixture(autouse=True)
def _aten_kernels():
    """torch hands some float32 operators on contiguous inputs (gelu) to oneDNN, whose
    kernels depend on the CPU: on AVX-512 machines its gelu gives NaN at +inf, on AVX2
    machines inf. These tests compare with ATen's own CPU kernels, whose answers do not
    depend on the machine."""
    with torch.backends.mkldnn.flags(enabled=False):
        yield


OUT_DTYPES = (gt.bool, gt.int64, gt.float32, gt.float64, gt.complex128)
# torch issues these once per process, so a second call has none to compare.
WARN_ONCE = ("UserWarning: Casting complex values to real discards the imaginary part",
             *(f"UserWarning: torch.searchsorted(): {what} tensor is non-contiguous, this "
               f"will lower the performance due to extra data copy when converting "
               f"non-contiguous tensor to contiguous, please use contiguous {what} tensor if "
               f"possible. This message will only appear once per program."
               for what in ("input value", "boundary", "sorter")),
             "UserWarning: torch.meshgrid: in an upcoming release, it will be required to pass "
             "the indexing argument.",
             "UserWarning: The reduce argument of torch.scatter with Tensor src is deprecated "
             "and will be removed in a future PyTorch release. Use torch.scatter_reduce instead "
             "for more reduction options.",
             "UserWarning: index_reduce() is in beta and the API may change at any time.",
             "UserWarning: Dropout mask should only be used for testing purposes.")


def _torch_sample(sample: SampleInput) -> SampleInput:
    return SampleInput(*to_torch(sample.args, torch), **to_torch(sample.kwargs, torch))


def _outcome(call) -> tuple:
    """``(result or 'Type: message', warnings)`` of a call, whether it returns or raises."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = call()
        except Exception as error:          # noqa: BLE001 - the error is the outcome
            result = f"{type(error).__name__}: {error}"
    texts = [f"{w.category.__name__}: {_without_origin(str(w.message))}" for w in caught]
    return result, [text for text in texts if text not in WARN_ONCE]


def _without_origin(message: str) -> str:
    """A warning's text without the C++ source location torch's TORCH_WARN appends
    (" (Triggered internally at /path/of/the/build/Resize.cpp:30.)"): it names torch's
    build, not the behaviour, so glasstorch does not repeat it."""
    return re.sub(r" \(Triggered internally at [^)]*\)$", "", message)


def _assert_same(op, mine, theirs, aliasing: bool = True) -> None:
    """A glasstorch result against torch's: errors by text, tensors by metadata and
    values (and by whether they are views, with `aliasing`), Python values by type and
    value."""
    if isinstance(theirs, str) or isinstance(mine, str):
        assert mine == theirs
    elif isinstance(theirs, torch.Tensor):
        assert isinstance(mine, gt.Tensor), f"{type(mine)} is not a tensor"
        assert str(mine.dtype) == str(theirs.dtype)
        assert tuple(mine.shape) == tuple(theirs.shape)
        assert mine.stride() == theirs.stride()
        assert mine.storage_offset() == theirs.storage_offset()
        assert not aliasing or mine._is_view() == theirs._is_view()
        assert (mine.is_conj(), mine.is_neg()) == (theirs.is_conj(), theirs.is_neg())
        if op.values_defined and theirs.device.type != "meta":
            assert_values(mine, to_numpy(theirs), dtype_name(mine.dtype))
    elif isinstance(theirs, (tuple, list)):
        assert _tuple_type(mine) == _tuple_type(theirs) and len(mine) == len(theirs)
        for a, b in zip(mine, theirs):
            _assert_same(op, a, b, aliasing)
    else:
        assert type(mine) is type(theirs) and (mine == theirs or theirs != theirs)


def _tuple_type(value) -> str:
    """A sequence's type as compared across libraries: `torch.return_types.sort` and
    `glasstorch.return_types.sort` are the same kind of result."""
    kind = type(value)
    if kind.__module__.endswith(".return_types"):
        return "return_types." + kind.__name__
    return kind.__qualname__


def _compare_call(op, variant, sample, **extra) -> None:
    """Run `variant` on `sample` in both libraries; compare outcomes, warnings, the
    identity of a returned input, and the inputs afterwards (for writing ops)."""
    theirs_sample = _torch_sample(sample)
    theirs_extra = to_torch(extra, torch)
    mine, my_warnings = _outcome(lambda: op.call(variant, sample, **extra))
    theirs, their_warnings = _outcome(
        lambda: op.call(variant, theirs_sample, torch, **theirs_extra))
    if isinstance(mine, str) or isinstance(theirs, str):
        assert mine == theirs
        return
    inputs = list(zip(sample.args + tuple(extra.values()),
                      theirs_sample.args + tuple(theirs_extra.values())))
    returned_input = _returns_input(mine, [a for a, b in inputs])
    assert returned_input == _returns_input(theirs, [b for a, b in inputs]), \
        "returns an input in one library only"
    # torch's copies of the inputs are views (as_strided over a flat storage)
    _assert_same(op, mine, theirs, aliasing=not returned_input)
    if not variant.startswith("ops."):      # torch.ops prints C++ warnings to stderr
        assert my_warnings == their_warnings
    for a, b in inputs:
        if isinstance(a, gt.Tensor) and a.device.type != "meta":
            _assert_same(op, a, b, aliasing=False)


def _returns_input(result, inputs: list) -> bool:
    """Whether `result` (or, for a list of results, one of them) is one of the input
    tensors, or of the tensors in an input list (atleast_1d((a, b)) may return a)."""
    candidates = []
    for value in inputs:
        candidates += list(value) if isinstance(value, (tuple, list)) else [value]
    results = list(result) if isinstance(result, (tuple, list)) else [result]
    return any(r is c for r in results for c in candidates)


@ops()
def test_matches_torch(op):
    """The primary variant; test_values has compared every dtype with NumPy already."""
    for dtype, sample in cases(op, SUBSYSTEM_DTYPES):
        with about(dtype, sample):
            _compare_call(op, op.variants[0], sample)


@ops()
def test_variants_match_torch(op):
    for variant in op.variants[1:]:
        for dtype, sample in cases(op, SUBSYSTEM_DTYPES):
            with about(dtype, sample):
                _compare_call(op, variant, sample)


@ops()
def test_known_bugs_still_differ(op):
    """Samples marked ``known(...)`` still differ from torch; when one agrees, the bug
    is fixed: remove its mark."""
    found = list(known_bug_cases(op))
    if not found:
        pytest.skip("no known bugs")
    for dtype, sample in found:
        try:
            _compare_call(op, op.variants[0], sample)
        except AssertionError:
            continue
        pytest.fail(f"fixed: {sample.known_bug} (dtype={dtype}, {sample!r}): remove the mark")


@ops(lambda op: op.inplace is not None)
def test_inplace_matches_torch(op):
    for dtype, sample in cases(op, SUBSYSTEM_DTYPES):
        with about(dtype, sample):
            _compare_call(op, op.inplace, sample)


@ops(lambda op: op.out is not None)
def test_out_matches_torch(op):
    """out= of every dtype, of the right size and of a wrong one."""
    for dtype, sample in cases(op, SUBSYSTEM_DTYPES):
        expected = op(sample)
        for out_dtype in OUT_DTYPES + (expected.dtype,):
            for shape in (tuple(expected.shape), (expected.numel() + 1,)):
                with about(dtype, sample):
                    _compare_call(op, op.out, sample, out=gt.zeros(shape, dtype=out_dtype))


@error_cases(known_bug=None)
def test_error_inputs_are_torchs(op, error):
    """The database itself: torch raises the declared exception with a matching message."""
    with pytest.raises(error.error_type, match=error.match):
        op(_torch_sample(error.sample), torch)


@error_cases()
def test_errors_match_torch(op, error):
    """glasstorch raises exactly what torch raises, on CPU and on meta inputs."""
    _compare_call(op, op.variants[0], error.sample)


@error_cases("known_bug_on_meta")
def test_errors_on_meta_match_torch(op, error):
    """Error inputs on meta tensors: checks that need no data still fire, as in torch."""
    meta = error.sample.map(to_meta)
    if not meta.tensors():
        pytest.skip("no tensor inputs")
    _compare_call(op, op.variants[0], meta)
