"""The samplers and gradients torch.distributions is built on.

`_standard_gamma`, `_sample_dirichlet` and `binomial` draw from the generator as
torch's CPU kernels do (`gamma.py`, `binomial.py`: one element after the other, in C
order), so a seeded program draws torch's numbers. `_standard_gamma_grad` and
`_dirichlet_grad` are the pathwise derivatives of gamma and Beta draws
(`reparameterized.py`): Gamma, Beta and Dirichlet `rsample` differentiate through them.
Only float and double are taken, as torch's kernels.
"""
from __future__ import annotations

import numpy as np

from ....c10 import dtype as dtypes
from ....c10.dtype import scalar_type_name, type_meta_name
from ....c10.generator import generator_or_default
from ...backends import no_meta_kernel, register_meta
from ...meta.shape import broadcast_shapes
from ...registry import TensorMeta, op
from .binomial import sample_binomial
from .fill import not_implemented
from .gamma import sample_dirichlet, sample_gamma
from .reparameterized import dirichlet_grad, standard_gamma_grad

_KERNEL_DTYPES = (dtypes.float32, dtypes.float64)


def _same_dtype(first, *others) -> None:
    """TensorIterator's check that every input has the first one's dtype."""
    for other in others:
        if other._dtype is not first._dtype:
            raise RuntimeError(f"Found dtype {scalar_type_name(other._dtype)} but expected "
                               f"{scalar_type_name(first._dtype)}")


def _elementwise_meta(kernel: str, first, *others, out=None) -> TensorMeta:
    """A result of the inputs' broadcast shape and common dtype, which the kernel must
    take. An out= tensor must have that dtype (torch's out= wrapper of a functional
    kernel copies nothing across dtypes)."""
    _same_dtype(first, *others)
    if first._dtype not in _KERNEL_DTYPES:
        raise not_implemented(kernel, first._dtype)
    if out is not None and out._dtype is not first._dtype:
        raise RuntimeError(f"Expected out tensor to have dtype {type_meta_name(first._dtype)}"
                           f", but got {type_meta_name(out._dtype)} instead")
    return TensorMeta(broadcast_shapes(first._size, *(o._size for o in others)), first._dtype)


def _broadcast(out: np.ndarray, *arrays: np.ndarray) -> list:
    return [np.broadcast_to(a, out.shape) for a in arrays]


@op("_standard_gamma(Tensor self, Generator? generator=None) -> Tensor",
    out=True, bind_out=False,
    meta=lambda self, generator=None, out=None: _elementwise_meta("gamma_cpu", self, out=out),
    grad={"self": "grad * _standard_gamma_grad(self, result)"})
def _standard_gamma(self, generator, *, out):
    """Draws from Gamma(alpha, 1), one per element of `input` (the concentrations alpha).

    Example::

        >>> torch.manual_seed(0)
        >>> torch._standard_gamma(torch.tensor([0.5, 2.0, 10.0]))
        tensor([7.8936e-04, 6.3154e-01, 1.0174e+01])
    """
    out[...] = sample_gamma(generator_or_default(generator), np.asarray(self, out.dtype))


register_meta(_standard_gamma, lambda self, generator=None: TensorMeta(self._size, self._dtype))


@op("_standard_gamma_grad(Tensor self, Tensor output) -> Tensor",
    out=True, bind_out=False,
    meta=lambda self, output, out=None: _elementwise_meta("_standard_gamma_grad_cpu", self,
                                                          output, out=out),
    grad={"self": "not_implemented('_standard_gamma_grad')"})
def _standard_gamma_grad(self, output, *, out):
    """The derivative of a Gamma(alpha, 1) draw `output` with respect to alpha (`input`),
    holding the draw's quantile fixed: -(dCDF/dalpha) / pdf, approximated as torch does.

    Example::

        >>> torch._standard_gamma_grad(torch.tensor([2.0]), torch.tensor([1.5]))
        tensor([0.9366])
    """
    out[...] = standard_gamma_grad(*_broadcast(out, self, output))


@op("_sample_dirichlet(Tensor self, Generator? generator=None) -> Tensor",
    out=True, bind_out=False,
    meta=lambda self, generator=None, out=None: _elementwise_meta("dirichlet", self, out=out),
    grad={"self": "not_implemented('_sample_dirichlet')"})
def _sample_dirichlet(self, generator, *, out):
    """Draws from Dirichlet distributions, one per row (last dimension) of `input`
    (the concentrations): normalised gamma draws.

    Example::

        >>> torch.manual_seed(0)
        >>> torch._sample_dirichlet(torch.tensor([1.0, 2.0, 3.0]))
        tensor([0.5282, 0.2411, 0.2307])
    """
    out[...] = sample_dirichlet(generator_or_default(generator), np.asarray(self))


no_meta_kernel(_sample_dirichlet)


@op("_dirichlet_grad(Tensor x, Tensor alpha, Tensor total) -> Tensor",
    out=True, bind_out=False,
    meta=lambda x, alpha, total, out=None: _elementwise_meta("_dirichlet_grad_cpu", x, alpha,
                                                             total, out=out),
    grad={"x": "not_implemented('_dirichlet_grad')",
          "alpha": "not_implemented('_dirichlet_grad')",
          "total": "not_implemented('_dirichlet_grad')"})
def _dirichlet_grad(x, alpha, total, *, out):
    """The derivative of a Beta(alpha, total - alpha) draw `x` with respect to alpha,
    divided by 1 - x (what Dirichlet draws' gradients are assembled from).

    Example::

        >>> torch._dirichlet_grad(torch.tensor([0.3]), torch.tensor([2.0]), torch.tensor([5.0]))
        tensor([0.1993])
    """
    out[...] = dirichlet_grad(*_broadcast(out, x, alpha, total))


def _binomial_meta(count, prob, generator=None, out=None) -> TensorMeta:
    if not count._dtype.is_floating_point:
        raise ValueError(f"binomial only supports floating-point dtypes for count, got: "
                         f"{scalar_type_name(count._dtype)}")
    return _elementwise_meta("binomial_cpu", count, prob, out=out)


@op("binomial(Tensor count, Tensor prob, Generator? generator=None) -> Tensor",
    out=True, bind_out=False, meta=_binomial_meta,
    grad={"count": "not_implemented('binomial')", "prob": "not_implemented('binomial')"})
def binomial(count, prob, generator, *, out):
    """Draws from Binomial(count, prob): the number of successes in `count` trials that
    each succeed with probability `prob` (element-wise, broadcast together).

    Example::

        >>> torch.manual_seed(0)
        >>> torch.binomial(torch.tensor([10.0, 100.0]), torch.tensor([0.5, 0.2]))
        tensor([ 7., 21.])
    """
    counts, probs = _broadcast(out, count, prob)
    out[...] = sample_binomial(generator_or_default(generator), counts, probs)


no_meta_kernel(binomial)
no_meta_kernel(_standard_gamma_grad)
no_meta_kernel(_dirichlet_grad)
