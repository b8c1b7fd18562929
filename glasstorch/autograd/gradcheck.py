"""`gradcheck` and `gradgradcheck`: derivatives against finite differences.

For every output element `k` and every input element `j` the analytical derivative
(one backward pass per output element, with a one-hot upstream gradient) must match
the central difference ``(f(x + eps) - f(x - eps)) / 2 eps``. Complex numbers follow
torch's convention: with upstream gradient `v`, backward returns ``dL/dx + i dL/dy``
for ``L = Re(conj(v) * output)``, so each complex input is perturbed along its real and
imaginary parts, and complex outputs are checked with ``v = 1`` and ``v = 1j``.
"""
from __future__ import annotations

import warnings

import numpy as np

from ..aten.binding import get_binding
from ..c10 import dtype as dtypes
from ..c10.tensor_impl import TensorBase, wrap_array
from .gradients import grad as autograd_grad


class GradcheckError(RuntimeError):
    """A derivative differs from its finite-difference estimate."""


def _as_tuple(value) -> tuple:
    return tuple(value) if isinstance(value, (tuple, list)) else (value,)


def _differentiable(inputs: tuple) -> list:
    return [i for i, t in enumerate(inputs) if isinstance(t, TensorBase) and t.requires_grad]


def _outputs(func, inputs: tuple) -> list:
    return [o for o in _as_tuple(func(*inputs)) if isinstance(o, TensorBase)]


def _numerical(func, inputs: tuple, index: int, eps: float, imaginary: bool) -> list:
    """d(output)/d(input element) for every element of input `index`, one row per element:
    a list (per output) of complex ndarrays of shape (input numel, output numel)."""
    data = inputs[index].detach()         # the input's own memory, whatever its strides
    step = eps * (1j if imaginary else 1)
    rows = None
    for j, position in enumerate(np.ndindex(*data.shape)):
        original = data[position].item()
        data[position] = original + step
        plus = _values(func, inputs)
        data[position] = original - step
        minus = _values(func, inputs)
        data[position] = original
        if rows is None:
            rows = [np.zeros((data.numel(), p.size), dtype=complex) for p in plus]
        for r, p, m in zip(rows, plus, minus):
            r[j] = (p - m) / (2 * eps)
    return rows or []


def _values(func, inputs: tuple) -> list:
    return [o.detach().numpy().reshape(-1).astype(complex) for o in _outputs(func, inputs)]


def _analytical(outputs: list, inputs: tuple, positions: list, v, out_index: int) -> list:
    """For output `out_index` and upstream `v` per element: one row per output element
    of the gradient of every differentiable input (complex ndarrays, flattened)."""
    output = outputs[out_index]
    rows = [np.zeros((output.numel(), inputs[p].numel()), dtype=complex) for p in positions]
    zeros = get_binding("function", "zeros")
    for k in range(output.numel()):
        upstream = zeros(output.numel(), dtype=output.dtype)
        upstream[k] = v
        found = autograd_grad(output, [inputs[p] for p in positions],
                              upstream.reshape(output.shape), retain_graph=True,
                              allow_unused=True)
        for row, g in zip(rows, found):
            if g is not None:
                row[k] = g.detach().numpy().reshape(-1)
    return rows


def gradcheck(func, inputs, *, eps: float = 1e-6, atol: float = 1e-5, rtol: float = 1e-3,
              raise_exception: bool = True, nondet_tol: float = 0.0,
              check_undefined_grad: bool = True, check_grad_dtypes: bool = False,
              check_batched_grad: bool = False, check_batched_forward_grad: bool = False,
              check_forward_ad: bool = False, check_backward_ad: bool = True,
              fast_mode: bool = False, masked=None) -> bool:
    """Check the gradients of `func` at `inputs` against finite differences.

    Args:
        func: a function of `inputs` returning a tensor or a tuple of tensors.
        inputs (Tensor or tuple): its arguments; those requiring grad are checked.
        eps (float): the finite-difference step.
        atol, rtol (float): the tolerances, ``|analytical - numerical| <= atol + rtol *
            |numerical|``.
        raise_exception (bool): raise `GradcheckError` on a mismatch (else return False).

    Returns:
        True when every derivative matches.

    Example::

        >>> x = torch.tensor([1., 2.], dtype=torch.float64, requires_grad=True)
        >>> torch.autograd.gradcheck(lambda t: (t * t).sum(), (x,))
        True
    """
    inputs = _as_tuple(inputs)
    positions = _differentiable(inputs)
    if not positions:
        raise ValueError("gradcheck expects at least one input tensor to require gradient, "
                         "but none of the them have requires_grad=True.")
    for p in positions:
        if inputs[p].dtype not in _DOUBLE:
            warnings.warn(f"Input #{p} requires gradient and is not a double precision "
                          f"floating point or complex. This check will likely fail if all "
                          f"the inputs are not of double precision floating point or complex. ")
    outputs = _outputs(func, inputs)
    try:
        for out_index, output in enumerate(outputs):
            if output.requires_grad:
                _check_output(func, inputs, positions, outputs, out_index, eps, atol, rtol)
    except GradcheckError:
        if raise_exception:
            raise
        return False
    return True


_DOUBLE = (dtypes.float64, dtypes.complex128)


def _check_output(func, inputs, positions, outputs, out_index, eps, atol, rtol) -> None:
    output = outputs[out_index]
    directions = (1, 1j) if output.dtype.is_complex else (1,)
    numerical = {}
    for p in positions:
        numerical[p, False] = _numerical(func, inputs, p, eps, False)[out_index]
        if inputs[p].dtype.is_complex:
            numerical[p, True] = _numerical(func, inputs, p, eps, True)[out_index]
    outputs = _outputs(func, inputs)       # afresh: perturbing moved the inputs' versions
    for v in directions:
        analytical = _analytical(outputs, inputs, positions, v, out_index)
        for slot, p in enumerate(positions):
            # d Re(conj(v) o) / dx_j  (+ i d/dy_j for complex inputs), arranged like backward
            expected = np.real(np.conj(v) * numerical[p, False]).T.astype(complex)
            if inputs[p].dtype.is_complex:
                expected = expected + 1j * np.real(np.conj(v) * numerical[p, True]).T
            got = analytical[slot]
            if not np.allclose(got, expected, rtol=rtol, atol=atol):
                raise GradcheckError(
                    f"Jacobian mismatch for output {out_index} with respect to input {p},\n"
                    f"numerical:{_show(expected, inputs[p])}\n"
                    f"analytical:{_show(got, inputs[p])}\n")


def _show(matrix: np.ndarray, like) -> str:
    values = np.ascontiguousarray(matrix.T if like.dtype.is_complex else matrix.T.real)
    return repr(_tensor_of(values))


def _tensor_of(values: np.ndarray) -> TensorBase:
    """A CPU tensor over a fresh C-contiguous array (``torch.from_numpy``)."""
    return wrap_array(values, dtypes.from_numpy_dtype(values.dtype))


def gradgradcheck(func, inputs, grad_outputs=None, *, eps: float = 1e-6, atol: float = 1e-5,
                  rtol: float = 1e-3, gen_non_contig_grad_outputs: bool = False,
                  raise_exception: bool = True, nondet_tol: float = 0.0,
                  check_undefined_grad: bool = True, check_grad_dtypes: bool = False,
                  check_batched_grad: bool = False, check_fwd_over_rev: bool = False,
                  check_rev_over_rev: bool = True, fast_mode: bool = False,
                  masked: bool = False) -> bool:
    """Check second derivatives: `gradcheck` of the gradient of `func` (taken with
    `create_graph=True`) with respect to the inputs and the upstream gradients.

    Args:
        func, inputs, eps, atol, rtol, raise_exception: as in `gradcheck`.
        grad_outputs (tuple of Tensor, optional): the upstream gradients (random by
            default, requiring grad).
    """
    inputs = _as_tuple(inputs)
    outputs = _outputs(func, inputs)
    if grad_outputs is None:
        generator = np.random.default_rng(0)
        grad_outputs = tuple(_tensor_of(generator.standard_normal(
            tuple(o.shape)).astype(o.detach().numpy().dtype)).requires_grad_()
            for o in outputs)
    grad_outputs = _as_tuple(grad_outputs)
    count = len(inputs)
    positions = _differentiable(inputs)

    def first_derivatives(*values):
        found = autograd_grad(_outputs(func, values[:count]), [values[p] for p in positions],
                              values[count:], create_graph=True, allow_unused=True)
        return tuple(g for g in found if g is not None)
    return gradcheck(first_derivatives, inputs + grad_outputs, eps=eps, atol=atol, rtol=rtol,
                     raise_exception=raise_exception)
