"""OpInfo entries for dropout (`aten/native/nn/dropout.py`): native_dropout and its backward,
and the composites dropout, feature_dropout, alpha_dropout, feature_alpha_dropout with
their in-place twins.

The dropping ops draw random numbers, so their entries compare shapes, dtypes, strides,
returned-input identity and errors (`values_defined=False`); `tests/nn/test_dropout.py`
compares the draws and values with torch's, bit for bit, after equal seeds.
`native_dropout_backward` is deterministic and checked against NumPy.
"""
import numpy as np
import pytest

import glasstorch as gt

from ..core import ErrorInput, OpInfo, SampleInput, make_tensor, tensors

FLOATING = (gt.float16, gt.bfloat16, gt.float32, gt.float64)
DIFFERENT_DRAWS = {"test_noncontiguous": pytest.mark.skip(
    reason="two calls draw different numbers; tests/nn/test_dropout.py compares draws "
           "with torch")}
_TWO_WRITES = {"test_inplace": pytest.mark.skip(
    reason="alpha dropout writes self twice (mul_, then add_ of the shift): two version "
           "bumps, as torch's; the values are compared in tests/nn/test_dropout.py")}
# p = 0, train = False: the input itself; p = 1: all zeros; else random
_SETTINGS = ((0.4, True), (0.0, True), (1.0, True), (0.4, False))


def _like(*arrays, **kwargs):
    return np.zeros_like(arrays[0])


def _nonempty(dtype, min_dim: int = 0):
    """The standard tensors with elements and at least `min_dim` dims (torch's
    native_dropout returns an empty input itself, which an `op` cannot)."""
    for x in tensors(dtype):
        if x.numel() and x.dim() >= min_dim:
            yield x


def sample_native_dropout(dtype):
    for i, x in enumerate(_nonempty(dtype)):
        p, train = _SETTINGS[i % len(_SETTINGS)]
        yield SampleInput(x, p, (True, False, None)[i % 3] if p == 0.4 else train)


def _native_dropout_ref(input, p, train):
    return [np.zeros_like(input), np.zeros(input.shape, bool)]


def errors_native_dropout():
    x = make_tensor((3,), gt.float32)
    yield ErrorInput(SampleInput(x, 1.5, True), RuntimeError,
                     r"^bernoulli_ expects p to be in \[0, 1\], but got p=-0\.5$")
    yield ErrorInput(SampleInput(make_tensor((3,), gt.int64), 0.5, True), RuntimeError,
                     r"^result type Float can't be cast to the desired output type Long$")


def sample_native_dropout_backward(dtype):
    for i, grad in enumerate(tensors(dtype)):
        mask = make_tensor(tuple(grad.shape), gt.bool, seed=3)
        yield SampleInput(grad, mask, (2.0, 1.0 / 0.7, 0.0)[i % 3])
    yield SampleInput(make_tensor((2, 3), dtype), make_tensor((3,), gt.bool), 2.0)


def _native_dropout_backward_ref(grad, mask, scale):
    compute = np.float32 if grad.dtype.itemsize < 4 else grad.dtype.type    # opmath
    return (grad.astype(compute) * mask * compute(scale)).astype(grad.dtype)


def sample_dropout(min_dim: int = 0):
    def samples(dtype):
        for i, x in enumerate(tensors(dtype)):
            if x.dim() >= min_dim:
                yield SampleInput(x, *_SETTINGS[i % len(_SETTINGS)])
    return samples


def sample_dropout_inplace(min_dim: int = 0):
    """Writable (not expanded) tensors, dropped for real (the other settings return
    self untouched, which test_inplace would take for a missed write)."""
    def samples(dtype):
        for x in _nonempty(dtype, min_dim):
            if not any(st == 0 and n > 1 for n, st in zip(x.shape, x.stride())):
                yield SampleInput(x, 0.4, True)
    return samples


def errors_dropout(feature: bool):
    def errors():
        x = make_tensor((3, 2), gt.float32)
        yield ErrorInput(SampleInput(x, 1.5, True), RuntimeError,
                         r"^dropout probability has to be between 0 and 1, but got 1\.5$")
        yield ErrorInput(SampleInput(make_tensor((3, 2), gt.int64), 0.5, True), RuntimeError,
                         r"^result type Float can't be cast to the desired output type Long$",
                         known_bug_on_meta="dropout.py: torch's meta kernels of div_/mul_ word "
                                           "the refusal of an integer self differently")
        if feature:
            yield ErrorInput(SampleInput(x[0], 0.5, True), RuntimeError,
                             r"^Feature dropout requires at least 2 dimensions in the input$")
    return errors


def _seeded(name: str):
    """The reference of in-place `name`: the functional composite on a twin of self
    (same memory order, so the draws land on the same elements), the default
    generator's state restored afterwards so that the call under test draws the same."""
    def reference(self, p, train):
        twin = np.empty_like(self)
        if twin.flags.c_contiguous and not self.flags.c_contiguous:
            twin = np.empty(self.shape + (2,), self.dtype)[..., 0]
        twin[...] = self
        state = gt.get_rng_state()
        # bfloat16 crosses from/to NumPy as int16 bits (torch's from_numpy refuses it)
        result = getattr(gt, name)(gt.from_numpy(twin.view(np.int16)).view(gt.bfloat16)
                                   if twin.dtype.name == "bfloat16" else gt.from_numpy(twin),
                                   p, train)
        gt.set_rng_state(state)
        if result.dtype is gt.bfloat16:
            return result.view(gt.int16).numpy().view(self.dtype)
        return result.numpy()
    return reference


def _dropout_entries(name: str, feature: bool) -> list:
    min_dim = 2 if feature else 0
    return [
        OpInfo(name, variants=(name,), ref=_like, sample_inputs=sample_dropout(min_dim),
               error_inputs=errors_dropout(feature), dtypes=FLOATING, values_defined=False,
               marks=DIFFERENT_DRAWS),
        OpInfo(name + "_", variants=(name + "_",), ref=_seeded(name),
               sample_inputs=sample_dropout_inplace(min_dim), dtypes=FLOATING,
               mutates_input=True, values_defined=False,
               marks={**DIFFERENT_DRAWS, **(_TWO_WRITES if "alpha" in name else {})}),
    ]


OPS = [
    OpInfo("native_dropout", variants=("native_dropout",), ref=_native_dropout_ref,
           sample_inputs=sample_native_dropout, error_inputs=errors_native_dropout,
           dtypes=FLOATING, values_defined=False, marks=DIFFERENT_DRAWS),
    OpInfo("native_dropout_backward", variants=("ops.aten.native_dropout_backward",),
           ref=_native_dropout_backward_ref, sample_inputs=sample_native_dropout_backward,
           dtypes=FLOATING),
    *_dropout_entries("dropout", feature=False),
    *_dropout_entries("feature_dropout", feature=True),
    *_dropout_entries("alpha_dropout", feature=False),
    *_dropout_entries("feature_alpha_dropout", feature=True),
]
