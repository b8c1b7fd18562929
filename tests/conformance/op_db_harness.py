"""glasstorch's operators against torch's own OpInfo database.

torch keeps, in `torch.testing._internal.common_methods_invocations.op_db`, one record
per operator with a generator of sample inputs. This harness takes the records of one
family (`FAMILIES`: the unary and binary ufuncs of the pointwise issue, or the named
operators of the reductions-to-matmul issue), runs every CPU sample of the dtypes below
through torch and through glasstorch, and compares the results: same dtype, same shape,
values within `torch.testing.assert_close`'s tolerance (the dtype's default, widened by
the record's own `toleranceOverride`s for CPU), NaNs equal; or both raise the same
exception type. Records with `error_inputs` are also checked: glasstorch must raise
torch's type. Singular vectors and eigenvectors are compared up to the gauge torch
documents them to have (Note [Vectors up to their gauge] in op_db_gauge.py).

    /work/torchref/bin/python tests/conformance/op_db_harness.py          # the table
    ... op_db_harness.py --details                     # plus every failure, by op
    ... op_db_harness.py -k div,add --limit 10         # some ops, 10 samples a dtype
    ... op_db_harness.py --family operators -k sort    # another family's records

Needs real torch (only tests and tools may import it; glasstorch never does).
"""
from __future__ import annotations

import argparse
import collections
import dataclasses
import pathlib
import re
import sys
import types
import unittest
import warnings

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:                 # run as a script from a checkout
    sys.path.insert(0, str(ROOT))

import glasstorch as gt  # noqa: E402
import op_db_gauge as gauge  # noqa: E402

DTYPES = ("float32", "float64", "int64", "bool", "complex64")
EXCLUDED_PREFIXES = ("special.", "jiterator_")     # the "special" family; CUDA only

# The operators of the reductions, scans, sorting, indexing, joining and matmul issue,
# by torch's record names (random samplers are checked bitwise in tests/aten/native/random/test_random.py;
# triplet_margin_with_distance_loss's record passes torch's own PairwiseDistance module
# as its distance, which cannot run on glasstorch tensors).
OPERATORS = frozenset("""
    sum nansum mean nanmean prod max min amax amin aminmax argmax argmin all any std var
    std_mean var_mean norm logsumexp median nanmedian mode kthvalue quantile nanquantile
    count_nonzero dist
    cumsum cumprod cummax cummin logcumsumexp diff gradient trapezoid trapz
    cumulative_trapezoid
    sort argsort msort topk unique unique_consecutive searchsorted bucketize histc
    histogram bincount nonzero nonzero_static argwhere isin
    __getitem__ index_select gather scatter scatter_add scatter_reduce index_add
    index_copy index_fill index_put index_reduce masked_fill masked_scatter masked_select
    take take_along_dim put
    cat stack hstack vstack dstack column_stack row_stack split_with_sizes hsplit vsplit
    dsplit tile repeat repeat_interleave roll flip fliplr flipud rot90 tril triu
    tril_indices triu_indices diag diag_embed diagflat diagonal_scatter select_scatter
    slice_scatter as_strided_scatter block_diag cartesian_prod combinations meshgrid kron
    atleast_1d atleast_2d atleast_3d ravel broadcast_tensors broadcast_shapes narrow_copy
    resize_ resize_as_ unravel_index trace cross linalg.cross renorm cdist cov corrcoef
    fill_diagonal_
    matmul __rmatmul__ mm bmm mv dot vdot inner outer ger addmm addmv addr addbmm baddbmm
    einsum tensordot chain_matmul linalg.multi_dot nn.functional.linear
    nn.functional.bilinear
    nn.functional.layer_norm nn.functional.rms_norm nn.functional.embedding
    nn.functional.one_hot nn.functional.normalize nn.functional.pad constant_pad_nd
    nn.functional.dropout nn.functional.dropout2d nn.functional.dropout3d
    nn.functional.alpha_dropout nn.functional.feature_alpha_dropout
    nn.functional.scaled_dot_product_attention
    nn.functional.cross_entropy nn.functional.nll_loss nn.functional.mse_loss
    nn.functional.l1_loss nn.functional.smooth_l1_loss nn.functional.huber_loss
    nn.functional.binary_cross_entropy nn.functional.binary_cross_entropy_with_logits
    nn.functional.kl_div
    nn.functional.margin_ranking_loss nn.functional.hinge_embedding_loss
    nn.functional.cosine_embedding_loss nn.functional.poisson_nll_loss
    nn.functional.gaussian_nll_loss nn.functional.triplet_margin_loss
    nn.functional.multilabel_soft_margin_loss nn.functional.soft_margin_loss
    nn.functional.multi_margin_loss nn.functional.multilabel_margin_loss nn.functional.ctc_loss
    nn.functional.linear_cross_entropy
    softmax log_softmax _softmax_backward_data nn.functional.softmin nn.functional.relu
    nn.functional.relu6 nn.functional.leaky_relu nn.functional.prelu nn.functional.elu
    nn.functional.selu nn.functional.celu nn.functional.gelu nn.functional.silu
    nn.functional.mish nn.functional.hardtanh nn.functional.softplus nn.functional.softsign
    nn.functional.softshrink nn.functional.hardshrink nn.functional.tanhshrink
    nn.functional.hardsigmoid nn.functional.hardswish nn.functional.logsigmoid
    nn.functional.threshold nn.functional.glu nn.functional.rrelu
    nn.functional.conv1d nn.functional.conv2d nn.functional.conv3d
    nn.functional.conv_transpose1d nn.functional.conv_transpose2d
    nn.functional.conv_transpose3d
    native_batch_norm _native_batch_norm_legit _batch_norm_with_update native_group_norm
    nn.functional.batch_norm nn.functional.instance_norm nn.functional.group_norm
    nn.functional.local_response_norm
    nn.functional.cosine_similarity nn.functional.pairwise_distance nn.functional.pdist
""".split())
# Records whose results are random draws: torch's record wraps its op in
# `wrapper_set_seed` (seed 42 inside the call); glasstorch's call is seeded alike.
SEEDED = frozenset("""
    nn.functional.dropout nn.functional.dropout2d nn.functional.dropout3d
    nn.functional.alpha_dropout nn.functional.feature_alpha_dropout
    nn.functional.scaled_dot_product_attention nn.functional.rrelu
    nn.functional.multi_head_attention_forward nn.functional.fractional_max_pool2d
    nn.functional.fractional_max_pool3d svd_lowrank pca_lowrank
""".split())


def _is_ufunc(entry) -> bool:
    from torch.testing._internal.opinfo.core import BinaryUfuncInfo, UnaryUfuncInfo
    return isinstance(entry, (UnaryUfuncInfo, BinaryUfuncInfo)) \
        and not entry.name.startswith(EXCLUDED_PREFIXES)


# The resampling and rearranging records of issue 15 (item 4).
RESAMPLING = frozenset("""
    nn.functional.interpolate nn.functional.upsample_bilinear nn.functional.upsample_nearest
    nn.functional.grid_sample grid_sampler_2d nn.functional.unfold nn.functional.pixel_shuffle
    nn.functional.pixel_unshuffle nn.functional.channel_shuffle grid_sampler_3d
""".split())

# The linear algebra records of issue 18 (item 1); linalg.cross, linalg.multi_dot,
# linalg.vector_norm and norm stay in "operators".
LINALG = frozenset("""
    cholesky cholesky_inverse cholesky_solve geqrf linalg.cholesky linalg.cholesky_ex
    linalg.cond linalg.det linalg.diagonal linalg.eig linalg.eigh linalg.eigvals
    linalg.eigvalsh linalg.householder_product linalg.inv linalg.inv_ex linalg.ldl_factor
    linalg.ldl_factor_ex linalg.ldl_solve linalg.lstsq linalg.lu linalg.lu_factor
    linalg.lu_factor_ex linalg.lu_solve linalg.matrix_norm linalg.matrix_power
    linalg.matrix_rank linalg.norm linalg.pinv linalg.qr linalg.slogdet linalg.solve
    linalg.solve_ex linalg.solve_triangular linalg.svd linalg.svdvals linalg.tensorinv
    linalg.tensorsolve linalg.vander linalg.vecdot logdet lu lu_solve lu_unpack matrix_exp
    ormqr pca_lowrank pinverse qr svd svd_lowrank triangular_solve
""".split())

# The spectral records of issue 18 (torch.fft, stft / istft, torch.signal.windows).
SPECTRAL = frozenset("""
    fft.fft fft.ifft fft.fft2 fft.ifft2 fft.fftn fft.ifftn fft.rfft fft.irfft fft.rfft2
    fft.irfft2 fft.rfftn fft.irfftn fft.hfft fft.ihfft fft.hfft2 fft.ihfft2 fft.hfftn
    fft.ihfftn fft.fftshift fft.ifftshift stft istft
    signal.windows.bartlett signal.windows.blackman signal.windows.cosine
    signal.windows.exponential signal.windows.gaussian signal.windows.general_cosine
    signal.windows.general_hamming signal.windows.hamming signal.windows.hann
    signal.windows.kaiser signal.windows.nuttall
""".split())

# The pooling, embedding-bag and remaining loss records of issue 15 (items 2, 5, 6).
POOLING = frozenset("""
    nn.functional.max_pool1d nn.functional.max_pool2d nn.functional.max_pool3d
    nn.functional.avg_pool1d nn.functional.avg_pool2d nn.functional.avg_pool3d
    nn.functional.adaptive_avg_pool1d nn.functional.adaptive_avg_pool2d
    nn.functional.adaptive_avg_pool3d nn.functional.adaptive_max_pool1d
    nn.functional.adaptive_max_pool2d nn.functional.adaptive_max_pool3d
    nn.functional.fractional_max_pool2d nn.functional.fractional_max_pool3d
    nn.functional.max_unpool1d nn.functional.max_unpool2d nn.functional.max_unpool3d
    max_pool2d_with_indices_backward nn.functional.embedding_bag
    nn.functional.triplet_margin_with_distance_loss native_layer_norm
""".split())

# The attention records of issue 16 (item 3).
TRANSFORMER = frozenset({"nn.functional.multi_head_attention_forward"})

FAMILIES = {"pointwise": _is_ufunc, "operators": lambda entry: entry.name in OPERATORS,
            "resampling": lambda entry: entry.name in RESAMPLING,
            "transformer": lambda entry: entry.name in TRANSFORMER,
            "pooling": lambda entry: entry.name in POOLING,
            "spectral": lambda entry: entry.name in SPECTRAL,
            "linalg": lambda entry: entry.name in LINALG}

# torch.special's records and torch.masked's (issue 18, items 3 and 5).
FAMILIES.update({"special": lambda entry: entry.name.startswith("special."),
                 "masked": lambda entry: entry.name.startswith("masked.")})


# ----------------------------------------------------------------------------------
# The records
# ----------------------------------------------------------------------------------
def load_entries(torch, family: str = "pointwise") -> list:
    """The records of torch's `op_db` in `family` (a key of `FAMILIES`)."""
    if "expecttest" not in sys.modules:
        try:
            import expecttest  # noqa: F401
        except ImportError:    # torch's test base class only; the records do not need it
            stub = types.ModuleType("expecttest")
            stub.TestCase = unittest.TestCase
            sys.modules["expecttest"] = stub
    from torch.testing._internal.common_methods_invocations import op_db
    return [entry for entry in op_db if FAMILIES[family](entry)]


def entry_label(entry) -> str:
    return f"{entry.name}.{entry.variant_test_name}" if entry.variant_test_name else entry.name


def entry_dtypes(entry, torch) -> list:
    """The dtypes of `DTYPES` the record supports on CPU, in `DTYPES` order."""
    supported = entry.supported_dtypes("cpu")
    return [name for name in DTYPES if getattr(torch, name) in supported]


def _lookup(namespace, dotted: str):
    for part in dotted.split("."):
        namespace = getattr(namespace, part, None)
    return namespace


def has_operator(name: str) -> bool:
    """Whether glasstorch has `name` as a function (``torch.<name>``), a Tensor method or
    an aten operator (``torch.ops.aten.<name>``, for records of backward operators)."""
    found = _lookup(gt, name)
    if callable(found) and not isinstance(found, gt.dtype):
        return True
    if "." not in name and hasattr(gt.ops.aten, name):
        return True
    return callable(getattr(gt.Tensor, name, None))


def glasstorch_callable(entry):
    """Call glasstorch the way the record's `op` calls torch; None when glasstorch lacks it.

    A record's `op` is a torch function (looked up by the record's name), a Tensor method
    (looked up on glasstorch's Tensor), or a lambda or function of the database spelling
    the call: the same code runs with its global `torch` meaning glasstorch.
    """
    op = entry.op
    if not has_operator(entry.name):
        return None
    written_by_the_database = getattr(op, "__module__", "").startswith("torch.testing.")
    if isinstance(op, types.FunctionType) and (op.__name__ == "<lambda>" or
                                               written_by_the_database):
        namespace = dict(op.__globals__, torch=gt)
        return types.FunctionType(op.__code__, namespace, op.__name__, op.__defaults__,
                                  op.__closure__)
    owner, _, name = getattr(op, "__qualname__", "").rpartition(".")
    if owner in ("Tensor", "TensorBase"):
        return getattr(gt.Tensor, name, None)
    found = _lookup(gt, entry.name)
    return found if callable(found) and not isinstance(found, gt.dtype) else None


def glasstorch_method(entry):
    """glasstorch's Tensor method for the record's method variant (None if it has none)."""
    method = entry.method_variant
    if method is None or method is entry.op:
        return None
    return getattr(gt.Tensor, method.__name__, None)


def tolerance(entry, dtype) -> tuple:
    """(rtol, atol) for `dtype`: None, None (assert_close's defaults) unless the record
    overrides them for CPU; then the widest override it declares."""
    from torch.testing._internal.common_device_type import toleranceOverride
    rtol = atol = None
    for info in entry.decorators:
        if getattr(info, "device_type", None) not in (None, "cpu"):
            continue
        for decorator in getattr(info, "decorators", (info,)):
            found = decorator.d.get(dtype) if isinstance(decorator, toleranceOverride) else None
            if found is not None:
                rtol = max(rtol or 0.0, found.rtol)
                atol = max(atol or 0.0, found.atol)
    return rtol, atol


# ----------------------------------------------------------------------------------
# Moving values between torch and glasstorch (exact geometry)
# ----------------------------------------------------------------------------------
def to_glasstorch(value, torch, shared: dict | None = None):
    """torch tensors, dtypes and devices inside `value` as glasstorch's; the rest as is.

    With `shared` (a dict, filled as tensors are converted), tensors over one torch
    storage become views of one glasstorch storage, so aliasing (an out= that is also
    an input) survives the conversion.
    """
    if isinstance(value, torch.Tensor):
        return _tensor_to_glasstorch(value, torch, shared)
    if isinstance(value, torch.dtype):
        return getattr(gt, str(value).removeprefix("torch."))
    if isinstance(value, torch.device):
        return gt.device(str(value))
    if isinstance(value, (tuple, list)):
        return type(value)(to_glasstorch(v, torch, shared) for v in value)
    if isinstance(value, dict):
        return {k: to_glasstorch(v, torch, shared) for k, v in value.items()}
    if isinstance(value, torch.nn.Module):         # a distance_function argument
        import module_db_harness
        return module_db_harness.to_glass(value, torch)
    return value


def _tensor_to_glasstorch(t, torch, shared: dict | None = None):
    """The same bytes, sizes, strides and storage offset, in a glasstorch tensor.

    A tensor with a conjugate or negative bit arrives with the same bits over the same
    memory (Note [Math bits]): its memory is converted, then the bits set again."""
    bits = (t.is_conj(), t.is_neg())
    converted = _memory_to_glasstorch(_without_bits(t.detach(), *bits), torch, shared)
    return _with_bits(converted, *bits)


def _without_bits(t, conj: bool, neg: bool):
    """`t`'s memory as it is: a view with its math bits flipped off (either library)."""
    t = t._conj() if conj else t
    return t._neg_view() if neg else t


_with_bits = _without_bits          # flipping a bit twice is the identity


def _memory_to_glasstorch(t, torch, shared: dict | None):
    if t.device.type == "meta":         # no bytes to copy: the geometry alone
        dtype = getattr(gt, str(t.dtype).removeprefix("torch."))
        return gt.empty_strided(tuple(t.shape), t.stride(), dtype=dtype, device="meta")
    count = t.untyped_storage().nbytes() // t.element_size()
    key = (t.untyped_storage().data_ptr(), t.dtype)
    if shared is not None and key in shared and count:
        return shared[key].as_strided(tuple(t.shape), t.stride(), t.storage_offset())
    flat = _flat_numpy(t.as_strided((count,), (1,), 0), torch)
    # a record may hand over a tensor whose storage an earlier call shrank (resize_,
    # a failed out=): give the copy room for its geometry, as zeros
    needed = t.storage_offset() + 1 + sum((n - 1) * st for n, st in zip(t.shape, t.stride())) \
        if t.numel() else 0
    if needed > count:
        flat = np.concatenate([flat, np.zeros(needed - count, flat.dtype)])
    base = gt.from_numpy(flat)
    if shared is not None and count:
        shared[key] = base
    return base.as_strided(tuple(t.shape), t.stride(), t.storage_offset())


def _flat_numpy(t, torch) -> np.ndarray:
    """A 1-D torch tensor's elements as a NumPy copy (bfloat16 through ml_dtypes, which
    torch's `numpy()` does not know)."""
    if t.dtype == torch.bfloat16:
        import ml_dtypes
        return t.view(torch.int16).numpy().copy().view(ml_dtypes.bfloat16)
    return t.numpy().copy()


def to_torch(t, torch):
    """A glasstorch tensor's values as a torch tensor (same dtype and shape)."""
    if t.is_conj() or t.is_neg():
        bits = (t.is_conj(), t.is_neg())
        return _with_bits(to_torch(_without_bits(t, *bits), torch), *bits)
    dtype = getattr(torch, str(t.dtype).removeprefix("torch."))
    try:
        return torch.from_numpy(np.array(t.numpy()))
    except TypeError:               # bfloat16, complex32, float8: NumPy lacks them
        if t.numel() == 0:
            return torch.empty(tuple(t.shape), dtype=dtype)
        array = t.reshape(-1).contiguous().view(gt.uint8).numpy().copy()
        return torch.from_numpy(array).view(dtype).reshape(tuple(t.shape))


# ----------------------------------------------------------------------------------
# Comparing one sample
# ----------------------------------------------------------------------------------
def compare(expected, actual, torch, tol: tuple):
    """None when `actual` (glasstorch) matches `expected` (torch), else the reason."""
    if isinstance(expected, (tuple, list)):
        if not isinstance(actual, (tuple, list)) or len(actual) != len(expected):
            return f"returned {type(actual).__name__}, torch a {len(expected)}-tuple"
        for e, a in zip(expected, actual):
            reason = compare(e, a, torch, tol)
            if reason:
                return reason
        return None
    if not isinstance(expected, torch.Tensor):         # NotImplemented, a number
        same = type(actual) is type(expected) and actual == expected
        return None if same else f"returned {actual!r}, torch {expected!r}"
    if not isinstance(actual, gt.Tensor):
        return f"returned {type(actual).__name__}, torch a Tensor"
    if str(actual.dtype) != str(expected.dtype):
        return f"dtype {actual.dtype}, torch {expected.dtype}"
    if tuple(actual.shape) != tuple(expected.shape):
        return f"shape {tuple(actual.shape)}, torch {tuple(expected.shape)}"
    try:
        torch.testing.assert_close(to_torch(actual, torch), expected.detach(), rtol=tol[0],
                                   atol=tol[1], equal_nan=True, check_stride=False)
    except AssertionError as exc:
        lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
        return "values: " + "; ".join(lines[:4])
    return None


def describe(sample, torch) -> str:
    """A short text for a sample: each tensor's shape (strides when not row-major)."""
    def one(value):
        if isinstance(value, torch.Tensor):
            text = f"T{tuple(value.shape)}"
            if not value.is_contiguous():
                text += f"s{value.stride()}"
            return text
        if isinstance(value, (tuple, list)):
            return "(" + ", ".join(one(v) for v in value) + ")"
        return repr(value)
    parts = [one(sample.input)] + [one(a) for a in sample.args]
    parts += [f"{k}={one(v)}" for k, v in sample.kwargs.items()]
    return ", ".join(parts)


def convert_sample(sample, torch) -> types.SimpleNamespace:
    """The sample's input, args and kwargs as glasstorch values."""
    shared: dict = {}
    return types.SimpleNamespace(input=to_glasstorch(sample.input, torch, shared),
                                 args=to_glasstorch(sample.args, torch, shared),
                                 kwargs=to_glasstorch(sample.kwargs, torch, shared))


def outcome(call, sample, torch):
    """Run `call` on a sample: ('ok', result) or ('raised', exception)."""
    try:
        return "ok", call(sample.input, *sample.args, **sample.kwargs)
    except Exception as exc:               # the exception is the outcome being compared
        return "raised", exc


@dataclasses.dataclass
class OpResult:
    """One record's tally; `problems` holds (kind, dtype, sample, reason)."""

    label: str
    samples: int = 0
    matched: int = 0
    failed: int = 0
    errored: int = 0
    missing: bool = False
    errors_checked: int = 0
    errors_matched: int = 0
    by_dtype: dict = dataclasses.field(default_factory=dict)     # dtype -> [samples, matched]
    problems: list = dataclasses.field(default_factory=list)


def check_sample(entry, calls: list, sample, torch, tol: tuple) -> tuple:
    """('matched' | 'failed' | 'errored', reason) for one sample over glasstorch's calls.

    'errored': glasstorch raised where torch returned; 'failed': anything else unequal.
    """
    seed = 42 if entry.name in SEEDED else None
    converted = convert_sample(sample, torch)       # before torch may write the inputs
    status, expected = outcome(entry.op, sample, torch)
    for variant, call in calls:
        if seed is not None:
            gt.manual_seed(seed)
        got, actual = outcome(call, converted, torch)
        if status == "raised" and got == "raised":
            if not isinstance(actual, type(expected)):
                return "failed", (f"{variant}: raised {type(actual).__name__}, torch "
                                  f"{type(expected).__name__}: {expected}")
        elif status == "raised":
            return "failed", f"{variant}: returned, torch raised {type(expected).__name__}: " \
                             f"{str(expected).splitlines()[0]}"
        elif got == "raised":
            return "errored", f"{variant}: {type(actual).__name__}: " \
                              f"{str(actual).splitlines()[0] if str(actual) else ''}"
        else:
            actual = gauge.turned(entry.name, expected, actual, lambda t: to_torch(t, torch),
                                  lambda t: to_glasstorch(t, torch))
            reason = compare(expected, actual, torch, tol)
            if reason:
                return "failed", f"{variant}: {reason}"
    return "matched", None


def check_errors(entry, call, torch, result: OpResult) -> None:
    """Each error input torch refuses as its record says: glasstorch raises the same type."""
    if entry.error_inputs_func is None:
        return
    torch.manual_seed(0)
    for error in entry.error_inputs_func(entry, "cpu"):
        sample = error.sample_input
        converted = convert_sample(sample, torch)
        status, expected = outcome(entry.op, sample, torch)
        if status != "raised" or not isinstance(expected, error.error_type):
            continue                                  # not an error of torch's CPU build
        result.errors_checked += 1
        got, actual = outcome(call, converted, torch)
        if got == "raised" and isinstance(actual, error.error_type):
            result.errors_matched += 1
        else:
            found = f"raised {type(actual).__name__}: {actual}" if got == "raised" \
                else "returned"
            result.problems.append(("error_input", "-", describe(sample, torch),
                                    f"{found}; torch raises {type(expected).__name__}: "
                                    f"{str(expected).splitlines()[0]}"))


def run_entry(entry, torch, limit: int | None = None, count_missing: bool = False,
              reference: bool = False) -> OpResult:
    """Every CPU sample of the record, in each dtype of `DTYPES` it supports (its
    `reference_inputs`, a wider set with extremal values, when `reference`)."""
    result = OpResult(entry_label(entry))
    call = glasstorch_callable(entry)
    result.missing = call is None
    if result.missing and not count_missing:
        return result
    calls = [("op", call)]
    method = glasstorch_method(entry)
    if method is not None:
        calls.append(("Tensor." + entry.method_variant.__name__, method))
    with warnings.catch_warnings():     # casts and experimental dtypes warn on both sides
        warnings.simplefilter("ignore")
        for dtype in entry_dtypes(entry, torch):
            _run_dtype(entry, calls, dtype, torch, limit, result, reference)
        if not result.missing:
            check_errors(entry, call, torch, result)
    return result


def generate(entry, dtype: str, torch, reference: bool = False):
    """The record's CPU samples in `dtype`, from a seeded generator.

    The generator functions are called directly: the record's `sample_inputs`
    wraps them in a tracker that inspects the call stack for every sample, which
    costs far more than running them.
    """
    torch.manual_seed(0)
    make = entry.reference_inputs_func if reference else None
    make = make or entry.sample_inputs_func
    return make(entry, "cpu", getattr(torch, dtype), False)


def _run_dtype(entry, calls: list, dtype: str, torch, limit: int | None,
               result: OpResult, reference: bool) -> None:
    """The record's samples in one dtype, tallied into `result`."""
    tol = tolerance(entry, getattr(torch, dtype))
    tally = result.by_dtype.setdefault(dtype, [0, 0])
    for index, sample in enumerate(generate(entry, dtype, torch, reference)):
        if limit is not None and index >= limit:
            break
        tally[0] += 1
        result.samples += 1
        if result.missing:
            continue
        status, reason = check_sample(entry, calls, sample, torch, tol)
        if status == "matched":
            tally[1] += 1
            result.matched += 1
            continue
        setattr(result, status, getattr(result, status) + 1)
        result.problems.append((status, dtype, describe(sample, torch), reason))


def run(torch, pattern: str = "", limit: int | None = None, count_missing: bool = False,
        reference: bool = False, family: str = "pointwise") -> list:
    """An `OpResult` for each record of `family` whose label contains one of `pattern`'s
    comma-separated parts (all records for '')."""
    parts = [p for p in pattern.split(",") if p]
    results = []
    for entry in load_entries(torch, family):
        label = entry_label(entry)
        if parts and not any(p in label for p in parts):
            continue
        results.append(run_entry(entry, torch, limit, count_missing, reference))
    return results


# ----------------------------------------------------------------------------------
# Reporting
# ----------------------------------------------------------------------------------
def rates(results: list) -> dict:
    """dtype -> (samples, matched) over the records glasstorch has, plus 'all'."""
    totals = collections.defaultdict(lambda: [0, 0])
    for result in results:
        if result.missing:
            continue
        for dtype, (samples, matched) in result.by_dtype.items():
            for key in (dtype, "all"):
                totals[key][0] += samples
                totals[key][1] += matched
    return {key: tuple(value) for key, value in totals.items()}


def percent(samples: int, matched: int) -> float:
    return 100.0 * matched / samples if samples else 100.0


def format_table(results: list) -> str:
    """The per-op table, the missing records and the match rate per dtype."""
    lines = [f"{'op':<28}{'samples':>8}{'matched':>8}{'failed':>8}{'errored':>8}"
             f"{'rate':>8}{'errors ok':>11}"]
    for r in results:
        if r.missing:
            continue
        errors = f"{r.errors_matched}/{r.errors_checked}" if r.errors_checked else "-"
        lines.append(f"{r.label:<28}{r.samples:>8}{r.matched:>8}{r.failed:>8}{r.errored:>8}"
                     f"{percent(r.samples, r.matched):>7.1f}%{errors:>11}")
    missing = [r for r in results if r.missing]
    if missing:
        counted = sum(r.samples for r in missing)
        lines.append(f"missing ({len(missing)} records"
                     f"{f', {counted} samples' if counted else ''}): "
                     + " ".join(r.label for r in missing))
    totals = rates(results)
    lines.append("match rate over the ops glasstorch has: " + ", ".join(
        f"{key} {percent(*totals[key]):.1f}% ({totals[key][1]}/{totals[key][0]})"
        for key in (*DTYPES, "all") if key in totals))
    if any(r.samples for r in missing):
        everything = sum(r.samples for r in results)
        lines.append(f"over every record in scope (missing ones unmatched): "
                     f"{percent(everything, totals.get('all', (0, 0))[1]):.1f}%")
    checked = sum(r.errors_checked for r in results)
    lines.append(f"error inputs raising torch's type: "
                 f"{sum(r.errors_matched for r in results)}/{checked}")
    return "\n".join(lines)


def format_details(results: list, per_reason: int = 3) -> str:
    """Every problem, grouped by op and by reason (a few sample descriptions each)."""
    lines = []
    for r in results:
        if not r.problems:
            continue
        lines.append(f"== {r.label}: {r.failed} failed, {r.errored} errored, "
                     f"{r.errors_checked - r.errors_matched} error inputs wrong")
        grouped = collections.defaultdict(list)       # same reason up to its numbers
        for kind, dtype, sample, reason in r.problems:
            key = (kind, re.sub(r"[-+]?\d[\d.e+-]*", "#", reason.splitlines()[0]))
            grouped[key].append((reason, f"{dtype}: {sample}"))
        for (kind, _), found in grouped.items():
            lines.append(f"  [{kind} x{len(found)}] {found[0][0]}")
            lines.extend(f"      {sample}" for _, sample in found[:per_reason])
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-k", dest="pattern", default="", help="comma-separated op names")
    parser.add_argument("--family", default="pointwise", choices=sorted(FAMILIES),
                        help="which records: the ufuncs, or the other operators")
    parser.add_argument("--limit", type=int, default=None, help="samples per dtype")
    parser.add_argument("--details", action="store_true", help="list every failure")
    parser.add_argument("--count-missing", action="store_true",
                        help="also count the samples of records glasstorch lacks")
    parser.add_argument("--reference", action="store_true",
                        help="the records' reference_inputs (extremal values) instead")
    args = parser.parse_args(argv)
    import torch
    results = run(torch, args.pattern, args.limit, args.count_missing, args.reference,
                  args.family)
    print(format_table(results))
    if args.details:
        print(format_details(results))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
