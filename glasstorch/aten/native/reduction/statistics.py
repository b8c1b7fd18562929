"""Covariance and correlation of variables observed together: cov, corrcoef.

Both are composites (as in ATen), written in the operators they reduce to (sum, mm,
true_divide, ...), so their dtypes follow those operators' promotion exactly (an
integer input averages to float32, float64 weights make a float64 result) and
autograd flows through them without formulas of their own.

The input holds one variable per row and one observation per column; a 1-D input is
a single variable.
"""
from __future__ import annotations

import warnings

from ....c10 import dtype as dtypes
from ....c10.dtype import scalar_type_name
from ...dispatcher import ops
from ...registry import composite


def _check_weights(w, name: str, observations: int, kind_ok, kind: str) -> None:
    """torch's checks of `fweights` / `aweights`, in its order."""
    if w.dim() > 1:
        raise RuntimeError(f"cov(): expected {name} to have one or fewer dimensions but got "
                           f"{name} with {w.dim()} dimensions")
    if not kind_ok(w._dtype):
        raise RuntimeError(f"cov(): expected {name} to have {kind} dtype but got {name} with "
                           f"{scalar_type_name(w._dtype)} dtype")
    if w.numel() != observations:
        raise RuntimeError(f"cov(): expected {name} to have the same numel as there are "
                           f"observations in the input but got {w.numel()} != {observations}")
    if observations and not _true(ops.aten.ge.Tensor.call(ops.aten.min.default.call(w), 0)):
        raise RuntimeError(f"cov(): {name} cannot be negative")


def _true(t) -> bool:
    return bool(ops.aten._local_scalar_dense.default.call(t))


def _is_integral(dtype) -> bool:
    return not (dtype.is_floating_point or dtype.is_complex or dtype is dtypes.bool)


def _weights(fweights, aweights, observations: int):
    """The product of the frequency and reliability weights (None without either)."""
    w = None
    if fweights is not None:
        _check_weights(fweights, "fweights", observations, _is_integral, "integral")
        w = fweights
    if aweights is not None:
        _check_weights(aweights, "aweights", observations, lambda d: d.is_floating_point,
                       "floating point")
        w = aweights if w is None else ops.aten.mul.Tensor.call(w, aweights)
    return w


def _normalization(w, w_sum, aweights, correction: int):
    """The divisor: observations (or weight) minus the correction, zero if not positive."""
    sub = ops.aten.sub.Tensor
    if w is not None and aweights is not None and correction != 0:
        spread = ops.aten.sum.default.call(ops.aten.mul.Tensor.call(w, aweights), None)
        factor = sub.call(w_sum, ops.aten.div.Tensor.call(
            ops.aten.mul.Tensor.call(spread, correction), w_sum), 1)
    else:
        factor = sub.call(w_sum, correction, 1)
    if _true(ops.aten.le.Tensor.call(factor, 0)):
        warnings.warn("cov(): degrees of freedom is <= 0. Correction should be strictly less "
                      "than the number of observations.", UserWarning, stacklevel=3)
        factor = ops.aten.zero_.default.call(factor)
    return factor


@composite("cov(Tensor self, *, int correction=1, Tensor? fweights=None, "
           "Tensor? aweights=None) -> Tensor", method=True)
def cov(self, correction=1, fweights=None, aweights=None):
    """The covariance matrix of the variables in the rows of `input`.

    Entry ``(i, j)`` is the weighted average over observations of
    ``(x_i - mean_i) * conj(x_j - mean_j)``, divided by the total weight minus
    `correction` (scaled by the reliability weights when there are some).

    Args:
        input (Tensor): a 2-D tensor (variables x observations), or a 1-D one (a single
            variable: the result is 0-D).

    Keyword args:
        correction (int): subtracted from the number of observations (1: the unbiased
            estimate, 0: the maximum likelihood one). Default: 1.
        fweights (Tensor, optional): integer counts of how often each observation occurs.
        aweights (Tensor, optional): floating reliability weights of the observations.

    Example::

        >>> torch.cov(torch.tensor([[0., 1., 2.], [2., 1., 0.]]))
        tensor([[ 1., -1.],
                [-1.,  1.]])
    """
    if self.dim() > 2:
        raise RuntimeError(f"cov(): expected input to have two or fewer dimensions but got an "
                           f"input with {self.dim()} dimensions")
    if self._dtype is dtypes.bool:
        raise RuntimeError("cov(): bool dtype is not supported for input")
    data = self if self.dim() == 2 else ops.aten.view.default.call(self, (1, -1))
    observations = data._size[1]
    w = _weights(fweights, aweights, observations)
    mul = ops.aten.mul.Tensor
    if w is None:
        w_sum = ops.aten.scalar_tensor.default.call(observations, dtypes.int64, None,
                                                    self._device, None)
    else:
        w_sum = ops.aten.sum.default.call(w, None)
        if not _true(ops.aten.ne.Tensor.call(w_sum, 0)):
            raise RuntimeError("cov(): weights sum to zero, can't be normalized")
    weighted = data if w is None else mul.call(data, w)
    total = ops.aten.sum.dim_IntList.call(weighted, (1,), False, None)
    average = ops.aten.div.Tensor.call(total, w_sum)
    factor = _normalization(w, w_sum, aweights, correction)
    centered = ops.aten.sub.Tensor.call(data, ops.aten.unsqueeze.default.call(average, 1), 1)
    right = centered if w is None else mul.call(centered, w)
    right = ops.aten.conj.default.call(ops.aten.t.default.call(right))
    product = ops.aten.mm.default.call(centered, right)
    return ops.aten.squeeze.default.call(ops.aten.true_divide.Tensor.call(product, factor))


@composite("corrcoef(Tensor self) -> Tensor", method=True)
def corrcoef(self):
    """Pearson's correlation coefficients of the variables in the rows of `input`.

    The covariance matrix (`torch.cov`) with entry ``(i, j)`` divided by the standard
    deviations of variables i and j, clipped to [-1, 1] (each of the real and
    imaginary parts, for complex input) against rounding.

    Args:
        input (Tensor): a 2-D tensor (variables x observations) or a 1-D one.

    Example::

        >>> torch.corrcoef(torch.tensor([[0., 1., 2.], [0., 2., 5.]]))
        tensor([[1.0000, 0.9934],
                [0.9934, 1.0000]])
    """
    if self.dim() > 2:
        raise RuntimeError(f"corrcoef(): expected input to have two or fewer dimensions but got "
                           f"an input with {self.dim()} dimensions")
    c = cov.call(self, 1, None, None)
    div = ops.aten.div.Tensor
    if c.dim() == 0:
        return div.call(c, c)           # nan for a variance of 0, nan or inf; else 1
    d = ops.aten.diagonal.default.call(c, 0, 0, 1)
    stddev = ops.aten.sqrt.default.call(ops.aten.real.default.call(d) if d._dtype.is_complex
                                        else d)
    c = div.call(c, ops.aten.view.default.call(stddev, (-1, 1)))
    c = div.call(c, ops.aten.view.default.call(stddev, (1, -1)))
    if not c._dtype.is_complex:
        return ops.aten.clip.default.call(c, -1, 1)
    # The real and imaginary parts clipped each, as pairs of reals; cloned, since the
    # result is a fresh tensor in torch (its `complex`), not a view of the pairs.
    parts = ops.aten.clip.default.call(ops.aten.view_as_real.default.call(c), -1, 1)
    return ops.aten.clone.default.call(ops.aten.view_as_complex.default.call(parts), None)
