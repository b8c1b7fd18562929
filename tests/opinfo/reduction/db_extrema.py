"""OpInfo entries for the extrema and truth reductions (`aten/native/reduction/extrema.py`): max,
min (whole, `.dim`, `.other`), amax, amin, aminmax, argmax, argmin, all, any."""
import re

import numpy as np
import pytest

import glasstorch as gt

from ..core import (BOOL, FLOATING, INTEGRAL, ErrorInput, OpInfo, SampleInput, make_tensor,
                   tensor_pairs, tensors)
from .db_reduction import (ALL, META_REF, OUT_OF_RANGE, REAL, REPEATED, bad_dims,
                           dim_choices, np_axes, special_values)

META_WORDING = META_REF + "other words (or no check) on meta"
SEVERAL_RESULTS = pytest.mark.skip(reason="out= of two results: tests/test_reduction.py")
NUMERIC = INTEGRAL + FLOATING


# ----- references --------------------------------------------------------------------
def _whole(function):
    def ref(x):
        return np.asarray(function(x))
    return ref


def _along(largest: bool):
    """max.dim / min.dim: values and the index of the first extreme (NaN first)."""
    def ref(x, dim, keepdim=False):
        if x.ndim == 0:
            return [x.copy(), np.asarray(0, dtype=np.int64)]
        find = np.argmax if largest else np.argmin
        index = np.expand_dims(find(x, axis=dim % x.ndim), dim % x.ndim)
        values = np.take_along_axis(x, index, dim % x.ndim)
        if not keepdim:
            index, values = index.squeeze(dim % x.ndim), values.squeeze(dim % x.ndim)
        return [values, index.astype(np.int64)]
    return ref


def _reduce(function):
    def ref(x, dim=(), keepdim=False):
        return np.asarray(function(x, axis=np_axes(x, dim), keepdims=keepdim and x.ndim > 0))
    return ref


def _aminmax(x, dim=None, keepdim=False):
    axis = None if dim is None else np_axes(x, dim)
    keep = keepdim and x.ndim > 0
    return [np.asarray(np.min(x, axis=axis, keepdims=keep)),
            np.asarray(np.max(x, axis=axis, keepdims=keep))]


def _arg(largest: bool):
    def ref(x, dim=None, keepdim=False):
        find = np.argmax if largest else np.argmin
        if dim is None or x.ndim == 0:
            found = np.asarray(find(x.reshape(-1)))
            return found.reshape((1,) * x.ndim if keepdim else ()).astype(np.int64)
        return np.asarray(find(x, axis=dim % x.ndim, keepdims=keepdim)).astype(np.int64)
    return ref


def _truth(function):
    def ref(x, dim=None, keepdim=False):
        dtype = np.uint8 if x.dtype == np.uint8 else np.bool_
        if dim is not None and not isinstance(dim, int) and len(dim) == 0:
            return (x != 0).astype(dtype)
        value = function(x != 0, axis=np_axes(x, dim), keepdims=keepdim and x.ndim > 0)
        return np.asarray(value).astype(dtype)
    return ref


# ----- samples -------------------------------------------------------------------------
def _reduces_empty(x, dim) -> bool:
    """Whether reducing `dim` of `x` folds an empty dim (refused by max and the like)."""
    if x.numel() == 0 and (dim is None or (not isinstance(dim, int) and len(dim) == 0)):
        return True
    dims = (dim,) if isinstance(dim, int) else dim or ()
    return x.dim() > 0 and any(x.shape[d] == 0 for d in dims)


def sample_nonempty(tuples=True, none=True, with_dim=True, keepdim=True):
    """Standard tensors and dims, leaving out reductions over an empty dim."""
    def samples(dtype):
        for x in tensors(dtype):
            if not with_dim:
                if x.numel():
                    yield SampleInput(x)
                continue
            for dim, keep in dim_choices(x, tuples, none):
                if not _reduces_empty(x, dim):
                    yield SampleInput(x, dim, keep) if keepdim else SampleInput(x, dim)
        if dtype.is_floating_point:
            nan_row = special_values(dtype)
            yield SampleInput(nan_row) if not with_dim else SampleInput(nan_row, 1, False)
            if with_dim:
                yield SampleInput(nan_row, 0, True)
        ties = gt.tensor([[3, 3, 1], [1, 2, 2]]).to(dtype)
        yield SampleInput(ties) if not with_dim else SampleInput(ties, 1, False)
    return samples


def sample_aminmax(dtype):
    for sample in sample_nonempty(tuples=False)(dtype):
        x, *rest = sample.args
        if not rest:
            yield SampleInput(x)
            continue
        yield SampleInput(x, dim=rest[0], keepdim=rest[1])
    yield SampleInput(make_tensor((2, 3), dtype), keepdim=True)


def sample_binary(dtype):
    for a, b in tensor_pairs(dtype):
        yield SampleInput(a, b)
    if dtype.is_floating_point:
        yield SampleInput(special_values(dtype), special_values(dtype).t())


def sample_truth(dims: str):
    def samples(dtype):
        for x in tensors(dtype):
            if dims == "whole":
                yield SampleInput(x)
                continue
            for dim, keep in dim_choices(x, tuples=dims == "dims", none=dims == "dims"):
                if dims == "dims" and isinstance(dim, int):
                    dim = (dim,)
                yield SampleInput(x, dim, keep)
        if dtype.is_floating_point:
            yield SampleInput(special_values(dtype), *(() if dims == "whole" else (1,)))
    return samples


# ----- error inputs ----------------------------------------------------------------------
def _empty_errors(name: str, whole_type=RuntimeError, whole=None, separator="():"):
    whole = whole or (rf"^{name}\(\): Expected reduction dim to be specified for "
                      rf"input.numel\(\) == 0. Specify the reduction dim with the 'dim' "
                      rf"argument.$")

    escaped = re.escape(separator)

    def errors():
        empty = make_tensor((0, 3), gt.float32)
        yield ErrorInput(SampleInput(empty), whole_type, whole, known_bug_on_meta=META_WORDING)
        yield ErrorInput(SampleInput(empty, 0), IndexError,
                         rf"^{name}{escaped} Expected reduction dim 0 to have non-zero size.$",
                         known_bug_on_meta=META_WORDING)
    return errors


def _errors_dim(name):
    def errors():
        yield from bad_dims(dims=(OUT_OF_RANGE,))()
        yield from list(_empty_errors(name)())[1:]
        yield ErrorInput(SampleInput(make_tensor((2, 2), gt.complex64), 0), RuntimeError,
                         rf"^{name}\(\): does not support complex input$",
                         known_bug_on_meta=META_WORDING)
    return errors


def _errors_whole(name):
    def errors():
        yield from list(_empty_errors(name)())[:1]
        yield ErrorInput(SampleInput(make_tensor((2, 2), gt.complex64)), NotImplementedError,
                         rf"^\"{name}_all\" not implemented for 'ComplexFloat'$")
    return errors


def _errors_amax(name):
    def errors():
        yield from bad_dims(dims=(OUT_OF_RANGE, REPEATED))()
        yield from _empty_errors(name)()
        x = make_tensor((2, 2), gt.float32)
        yield ErrorInput(SampleInput(x, 0, out=gt.empty(0, dtype=gt.int64)), RuntimeError,
                         r"^Expected the dtype for input and out to match, but got Float for "
                         r"input's dtype and Long for out's dtype.$",
                         known_bug_on_meta=META_WORDING)
    return errors


def _errors_arg(name):
    def errors():
        yield from bad_dims(dims=(OUT_OF_RANGE,))()
        yield from _empty_errors(name, IndexError, rf"^{name}\(\): Expected reduction dim to "
                                 rf"be specified for input.numel\(\) == 0.$")()
        yield ErrorInput(SampleInput(make_tensor((2,), gt.bool)), RuntimeError,
                         rf"^{name}\(\): does not support bool input$",
                         known_bug_on_meta=META_WORDING)
        yield ErrorInput(SampleInput(make_tensor((2,), gt.float32), 0,
                                     out=gt.empty(0, dtype=gt.int32)), RuntimeError,
                         r"^Expected out tensor to have dtype long int, but got int instead$")
    return errors


def _errors_aminmax():
    empty = make_tensor((0, 3), gt.float32)
    yield ErrorInput(SampleInput(empty), RuntimeError,
                     r"^aminmax\(\): cannot compute aminmax over an empty dimension as the "
                     r"operation has no identity.$", known_bug_on_meta=META_WORDING)
    yield ErrorInput(SampleInput(empty, dim=0), IndexError,
                     r"^aminmax: Expected reduction dim 0 to have non-zero size.$",
                     known_bug_on_meta=META_WORDING)
    yield ErrorInput(SampleInput(make_tensor((2, 2), gt.complex64)), NotImplementedError,
                     r"^\"aminmax_cpu\" not implemented for 'ComplexFloat'$")


def _errors_truth(name):
    def errors():
        yield from bad_dims(dims=(OUT_OF_RANGE,))()
        yield ErrorInput(SampleInput(make_tensor((2, 2), gt.float32), 0,
                                     out=gt.empty(0, dtype=gt.float32)), RuntimeError,
                         rf"^{name} only supports bool tensor for result, got: Float$",
                         known_bug_on_meta=META_WORDING)
    return errors


def _extreme_entries(name: str, largest: bool):
    extreme = np.max if largest else np.min
    binary = np.maximum if largest else np.minimum
    return [
        OpInfo(name, variants=(name, f"Tensor.{name}"), ref=_whole(extreme), dtypes=REAL,
               sample_inputs=sample_nonempty(with_dim=False), error_inputs=_errors_whole(name),
               out=name),
        OpInfo(f"{name}.other", variants=(name, f"Tensor.{name}"), ref=binary, dtypes=REAL,
               sample_inputs=sample_binary, out=name),
        OpInfo(f"{name}.dim", variants=(name, f"Tensor.{name}"), ref=_along(largest),
               dtypes=REAL, sample_inputs=sample_nonempty(tuples=False, none=False),
               error_inputs=_errors_dim(name), out=name,
               marks={"test_out": SEVERAL_RESULTS, "test_out_matches_torch": SEVERAL_RESULTS}),
        OpInfo(f"a{name}", variants=(f"a{name}", f"Tensor.a{name}"), ref=_reduce(extreme),
               dtypes=REAL, sample_inputs=sample_nonempty(none=False),
               error_inputs=_errors_amax(f"a{name}"), out=f"a{name}"),
        OpInfo(f"arg{name}", variants=(f"arg{name}", f"Tensor.arg{name}"), ref=_arg(largest),
               dtypes=NUMERIC, sample_inputs=sample_nonempty(tuples=False),
               error_inputs=_errors_arg(f"arg{name}"), out=f"arg{name}"),
    ]


def _truth_entries(name: str, function):
    ref = _truth(function)
    common = {"dtypes": ALL, "error_inputs": _errors_truth(name), "out": name,
              "out_sets_dtype": True}
    return [
        OpInfo(name, variants=(name, f"Tensor.{name}"), ref=ref,
               sample_inputs=sample_truth("whole"), out=name, dtypes=ALL, out_sets_dtype=True),
        OpInfo(f"{name}.dims", variants=(name, f"Tensor.{name}"), ref=ref,
               sample_inputs=sample_truth("dims"), **common),
        OpInfo(f"{name}.dim", variants=(name, f"Tensor.{name}"), ref=ref,
               sample_inputs=sample_truth("dim"), **common),
    ]


OPS = [
    *_extreme_entries("max", True),
    *_extreme_entries("min", False),
    OpInfo("aminmax", variants=("aminmax", "Tensor.aminmax"), ref=_aminmax, dtypes=REAL,
           sample_inputs=sample_aminmax, error_inputs=_errors_aminmax, out="aminmax",
           marks={"test_out": SEVERAL_RESULTS, "test_out_matches_torch": SEVERAL_RESULTS}),
    *_truth_entries("all", np.all),
    *_truth_entries("any", np.any),
]
