"""OpInfo entries for the samplers and gradients of `aten/native/random/distributions.py`.

Draws are random and the gradients are torch's approximations: the entries check
shapes, dtypes, meta and errors (`values_defined=False`); the values are compared
with torch's (`test_differential.py`, and bit for bit from equal seeds in
`tests/aten/native/random/test_distribution_samplers.py`, which also checks the
gradients against the exact ones).
"""
import pytest

import glasstorch as gt

from ..core import OpInfo, SampleInput, make_tensor, tensors
from .db_random import DIFFERENT_DRAWS, _error, _like

FLOATS = (gt.float32, gt.float64)
NO_META = {"test_meta": pytest.mark.skip(
    reason="torch has no Meta kernel for it (test_differential compares the refusals)")}


def _not_implemented(kernel, dtype_name, *args):
    return _error(SampleInput(*args), rf"^\"{kernel}\" not implemented for '{dtype_name}'$",
                  NotImplementedError)


def sample_standard_gamma(dtype):
    for x in tensors(dtype, low=0.05, high=12):
        yield SampleInput(x)


def errors_standard_gamma():
    yield _not_implemented("gamma_cpu", "Half", gt.ones(3, dtype=gt.float16))
    yield _not_implemented("gamma_cpu", "Long", gt.ones(3, dtype=gt.int64))


def sample_standard_gamma_grad(dtype):
    for alpha in tensors(dtype, low=0.1, high=20):
        yield SampleInput(alpha, make_tensor(alpha.shape, dtype, low=0.01, high=25))


def errors_standard_gamma_grad():
    yield _error(SampleInput(gt.ones(3, dtype=gt.float64), gt.ones(3)),
                 r"^Found dtype Float but expected Double$")
    yield _not_implemented("_standard_gamma_grad_cpu", "Long",
                           gt.ones(2, dtype=gt.int64), gt.ones(2, dtype=gt.int64))


def sample_sample_dirichlet(dtype):
    for x in tensors(dtype, low=0.1, high=5):
        yield SampleInput(x)


def errors_sample_dirichlet():
    yield _not_implemented("dirichlet", "BFloat16", gt.ones(3, dtype=gt.bfloat16))


def sample_dirichlet_grad(dtype):
    for x in tensors(dtype, low=0.02, high=0.98):
        alpha = make_tensor(x.shape, dtype, low=0.2, high=10)
        yield SampleInput(x, alpha, alpha + make_tensor(x.shape, dtype, low=0.2, high=10))


def errors_dirichlet_grad():
    yield _error(SampleInput(gt.ones(3, dtype=gt.float64), gt.ones(3), gt.ones(3)),
                 r"^Found dtype Float but expected Double$")
    yield _error(SampleInput(gt.ones(3), gt.ones(2), gt.ones(3)),
                 r"^The size of tensor a \(3\) must match the size of tensor b \(2\) at "
                 r"non-singleton dimension 0$")


def sample_binomial(dtype):
    for count in tensors(dtype, low=0, high=60):
        yield SampleInput(count.round(), make_tensor(count.shape, dtype, low=0, high=1))


def errors_binomial():
    yield _error(SampleInput(gt.ones(3, dtype=gt.int64), gt.ones(3)),
                 r"^binomial only supports floating-point dtypes for count, got: Long$",
                 ValueError)
    yield _not_implemented("binomial_cpu", "Half", gt.ones(3, dtype=gt.float16),
                           gt.ones(3, dtype=gt.float16))
    yield _error(SampleInput(gt.ones(3, dtype=gt.float64), gt.ones(3)),
                 r"^Found dtype Float but expected Double$")


OPS = [
    OpInfo("_standard_gamma", variants=("_standard_gamma",), ref=_like(),
           out="ops.aten._standard_gamma",
           sample_inputs=sample_standard_gamma, error_inputs=errors_standard_gamma,
           dtypes=FLOATS, values_defined=False, marks=DIFFERENT_DRAWS),
    OpInfo("_standard_gamma_grad", variants=("_standard_gamma_grad",), ref=_like(),
           out="ops.aten._standard_gamma_grad",
           sample_inputs=sample_standard_gamma_grad, error_inputs=errors_standard_gamma_grad,
           dtypes=FLOATS, values_defined=False, marks=NO_META),
    OpInfo("_sample_dirichlet", variants=("_sample_dirichlet",), ref=_like(),
           out="ops.aten._sample_dirichlet",
           sample_inputs=sample_sample_dirichlet, error_inputs=errors_sample_dirichlet,
           dtypes=FLOATS, values_defined=False,
           marks={**DIFFERENT_DRAWS, **NO_META}),
    OpInfo("_dirichlet_grad", variants=("_dirichlet_grad",), ref=_like(),
           out="ops.aten._dirichlet_grad",
           sample_inputs=sample_dirichlet_grad, error_inputs=errors_dirichlet_grad,
           dtypes=FLOATS, values_defined=False, marks=NO_META),
    OpInfo("binomial", variants=("binomial",), ref=_like(), out="ops.aten.binomial",
           sample_inputs=sample_binomial, error_inputs=errors_binomial, dtypes=FLOATS,
           values_defined=False, marks={**DIFFERENT_DRAWS, **NO_META}),
]
