"""Finite differences and integrals: diff, gradient, trapezoid / trapz and
cumulative_trapezoid.

All of them are composites, as in ATen: written in slices, subtraction, `cat`, `sum`
and `cumsum`, so that their result dtypes (an integer `y` integrates to float), their
layouts and their derivatives are those of the operators they are made of, and no
derivative formula of their own is needed.
"""
from __future__ import annotations

from ....c10 import dtype as dtypes
from ...dispatcher import ops
from ...meta.shape import wrap_dim, wrap_dims
from ...registry import TensorMeta, prepare_out, composite
from ..pointwise.binary_scalar import div_scalar, mul_scalar
from ..shape.join import cat
from .sum import sum_dim
from .scan import cumsum
from ..shape.view import select, slice_


def _slice(t, dim: int, start: int | None, end: int | None = None):
    """``t[start:end]`` along `dim`, clamped as Python slices are (ATen's `slice`)."""
    return slice_.call(t, dim, start, end, 1)


# ----------------------------------------------------------------------------------
# diff
# ----------------------------------------------------------------------------------
def _check_diff(self, n: int, dim: int, prepend, append) -> None:
    if self.dim() < 1:
        raise RuntimeError("diff expects input to be at least one-dimensional")
    if n < 0:
        raise RuntimeError(f"order must be non-negative but got {n}")
    for other in (prepend, append):
        if other is None:
            continue
        wrapped = wrap_dim(dim, self.dim(), scalar_ok=False)
        if other.dim() != self.dim():
            raise RuntimeError("diff expects prepend or append to be the same dimension as "
                               "input")
        for i, (mine, theirs) in enumerate(zip(self._size, other._size)):
            if i != wrapped and mine != theirs:
                raise RuntimeError(
                    f"diff expects the shape of tensor to prepend or append to match that of "
                    f"input except along the differencing dimension; input.size({i}) = "
                    f"{mine}, but got tensor.size({i}) = {theirs}")


def _difference(x, dim: int, length: int, out=None):
    """One step: ``x[1:] - x[:-1]`` along `dim` (exclusive or for bool), `length` long,
    into `out`."""
    narrow = ops.aten.narrow.default
    later, earlier = narrow.call(x, dim, 1, length), narrow.call(x, dim, 0, length)
    if x._dtype is dtypes.bool:
        if out is None:
            return ops.aten.logical_xor.default.call(later, earlier)
        return ops.aten.logical_xor.out.call(later, earlier, out)
    if out is None:
        return ops.aten.sub.Tensor.call(later, earlier, 1)
    return ops.aten.sub.out.call(later, earlier, 1, out)


def _copy_into(out, self):
    """diff with n=0 into `out`: torch wants exactly self's dtype there, then copies."""
    if out._dtype is not self._dtype:
        raise RuntimeError(f"expected scalar_type {dtypes.scalar_type_name(self._dtype)} but "
                           f"found {dtypes.scalar_type_name(out._dtype)}")
    prepare_out(ops.aten.diff.out, out, TensorMeta(self._size, self._dtype))
    return ops.aten.copy_.default.call(out, self, False)


@composite("diff(Tensor self, int n=1, int dim=-1, Tensor? prepend=None, Tensor? append=None) "
           "-> Tensor", method=True, out=True)
def diff(self, n=1, dim=-1, prepend=None, append=None, out=None):
    """The `n`-th forward difference along `dim`: ``out[i] = input[i + 1] - input[i]``,
    applied `n` times.

    Args:
        input (Tensor): the values, with at least one dim.
        n (int): how many times to difference (0 returns a copy).
        dim (int): the dim to difference along (the last by default).
        prepend (Tensor, optional): values put before `input` along `dim` first.
        append (Tensor, optional): values put after `input` along `dim` first. Both
            must match `input`'s shape except along `dim`.

    Bool tensors differ by exclusive or. Each step shortens `dim` by one; an `n` longer
    than the dim leaves it empty.

    Example::

        >>> torch.diff(torch.tensor([1, 3, 6, 10]))
        tensor([2, 3, 4])
        >>> torch.diff(torch.tensor([1, 3, 6, 10]), n=2, prepend=torch.tensor([0]))
        tensor([1, 1, 1])
    """
    _check_diff(self, n, dim, prepend, append)
    if n == 0:
        if out is not None:
            return _copy_into(out, self)
        return ops.aten.clone.default.call(self, None)
    if prepend is not None or append is not None:
        self = cat.call([t for t in (prepend, self, append) if t is not None], dim)
    size = self._size[wrap_dim(dim, self.dim())]
    steps = min(n, size)
    for step in range(steps - 1 if out is not None else steps):
        self = _difference(self, dim, size - step - 1)
    if out is not None:         # the last step writes out (and, as torch, fails when
        return _difference(self, dim, size - steps, out)    # there is no step at all)
    return self


# ----------------------------------------------------------------------------------
# gradient
# ----------------------------------------------------------------------------------
def _check_gradient(self, spacing_size: int | None, dims, edge_order: int) -> None:
    """torch's checks, in its order. `spacing_size` is None when no spacing was given;
    `dims` None when no dim was."""
    if self._dtype is dtypes.uint8:
        raise RuntimeError("torch.gradient does not support uint8 input.")
    if spacing_size is not None and dims is None and spacing_size != self.dim():
        raise RuntimeError(
            f"torch.gradient expected spacing to be unspecified, a scalar, or a list of length "
            f"equal to 'self.dim() = {self.dim()}', since dim argument was not given, but got "
            f"a list of length {spacing_size}")
    if spacing_size is not None and dims is not None and spacing_size != len(dims):
        raise RuntimeError(
            f"torch.gradient expected spacing to be unspecified, a scalar or it's spacing and "
            f"dim arguments to have the same length, but got a spacing argument of length "
            f"{spacing_size} and a dim argument of length {len(dims)}.")
    if edge_order not in (1, 2):
        raise RuntimeError("torch.gradient only supports edge_order=1 and edge_order=2.")
    checked = range(self.dim()) if dims is None else wrap_dims(dims, self.dim())
    if any(self._size[d] < edge_order + 1 for d in checked):
        raise RuntimeError("torch.gradient expected each dimension size to be at least "
                           "edge_order+1")


def _uniform_gradient(self, spacing: list, dims, edge_order: int) -> list:
    """Central differences with a constant step per dim (one-sided at the edges).

    The numbers are the Scalar overloads' operands, as in torch's C++ (DivBackward1)."""
    results = []
    for dim, step in zip(dims, spacing):
        dim = wrap_dim(dim, self.dim())

        def term(weight, start, end=None):
            return mul_scalar.call(_slice(self, dim, start, end), weight)
        center = div_scalar.call(_slice(self, dim, 2) - _slice(self, dim, 0, -2), step)
        if edge_order == 1:
            first = div_scalar.call(_slice(self, dim, 1, 2) - _slice(self, dim, 0, 1), step)
            last = div_scalar.call(_slice(self, dim, -1) - _slice(self, dim, -2, -1), step)
        else:
            first = div_scalar.call(term(-1.5, 0, 1) + term(2, 1, 2) - term(0.5, 2, 3), step)
            last = div_scalar.call(term(0.5, -3, -2) - term(2, -2, -1) + term(1.5, -1), step)
        results.append(cat.call([first, div_scalar.call(center, 2), last], dim))
    return results


def _coordinate_gradient(self, coordinates, dims, edge_order: int) -> list:
    """Second-order differences for samples at the given coordinates, one 1-D tensor
    of them per dim (the weights of the three neighbours follow from the two steps)."""
    for where in coordinates:
        if where.device != self.device:
            raise RuntimeError(f"torch.gradient expected each tensor to be on the same device, "
                               f"but got devices {self.device} and {where.device}!")
    results = []
    for dim, where in zip(dims, coordinates):
        if where.dim() != 1:
            raise RuntimeError(f"torch.gradient expected each element of spacing to have one "
                               f"dimension, but got an element with {where.dim()} dimensions!")
        dim = wrap_dim(dim, self.dim())
        shape = [1] * self.dim()
        shape[dim] = -1
        steps = diff.call(where, 1, 0, None, None)
        h1, h2 = _slice(steps, 0, 0, -1), _slice(steps, 0, 1)
        a = (-h2 / (h1 * (h1 + h2))).reshape(shape)
        b = ((h2 - h1) / (h1 * h2)).reshape(shape)
        c = (h1 / (h2 * (h1 + h2))).reshape(shape)
        center = a * _slice(self, dim, 0, -2) + b * _slice(self, dim, 1, -1) + \
            c * _slice(self, dim, 2)
        first, last = _coordinate_edges(self, dim, steps, edge_order)
        results.append(cat.call([first, center, last], dim))
    return results


def _coordinate_edges(self, dim: int, steps, edge_order: int) -> tuple:
    """The one-sided differences at both ends of `dim` for uneven `steps`."""
    if edge_order == 1:
        return ((_slice(self, dim, 1, 2) - _slice(self, dim, 0, 1)) / select.call(steps, 0, 0),
                (_slice(self, dim, -1) - _slice(self, dim, -2, -1)) / select.call(steps, 0, -1))
    h = [select.call(steps, 0, i) for i in (0, 1, -2, -1)]
    a = -(2.0 * h[0] + h[1]) / (h[0] * (h[0] + h[1]))
    b = (h[0] + h[1]) / (h[0] * h[1])
    c = -h[0] / (h[1] * (h[0] + h[1]))
    first = a * _slice(self, dim, 0, 1) + b * _slice(self, dim, 1, 2) + \
        c * _slice(self, dim, 2, 3)
    a = h[3] / (h[2] * (h[3] + h[2]))
    b = -(h[3] + h[2]) / (h[3] * h[2])
    c = (2 * h[3] + h[2]) / (h[3] * (h[3] + h[2]))
    last = a * _slice(self, dim, -3, -2) + b * _slice(self, dim, -2, -1) + \
        c * _slice(self, dim, -1)
    return first, last


def _all_dims(self, dim) -> list:
    return list(range(self.dim())) if dim is None else [dim]


_GRADIENT_DOC = """Estimate the derivative of `input`'s samples along each dim (or `dim`).

    Interior points use second-order central differences; the edges one-sided
    differences of order `edge_order`.

    Args:
        input (Tensor): the samples.

    Keyword args:
        spacing (Number, list of Numbers or tuple of Tensors, optional): the distance
            between samples (1 when omitted): one number for every dim, one per dim,
            or the coordinates of the samples, one 1-D tensor per dim.
        dim (int or list of ints, optional): the dims to differentiate along (all
            when omitted).
        edge_order (int): 1 or 2.

    Returns:
        tuple of Tensors: one derivative per dim.

    Example::

        >>> torch.gradient(torch.tensor([1., 4., 9., 16.]))
        (tensor([3., 4., 6., 7.]),)
        >>> torch.gradient(torch.tensor([1., 4., 9., 16.]), spacing=(torch.tensor([0., 1., 2., 4.]),))
        (tensor([3.0000, 4.0000, 5.6667, 3.5000]),)
    """


def _declare_gradient(schema: str, body):
    body.__name__ = body.__qualname__ = "gradient"
    body.__doc__ = _GRADIENT_DOC
    return composite(schema, python_name="gradient")(body)


def _gradient_dims(self, dim, edge_order=1):
    _check_gradient(self, len(dim), dim, edge_order)
    return _uniform_gradient(self, [1.0] * len(dim), dim, edge_order)


def _gradient_scalar_dims(self, spacing, dim, edge_order=1):
    _check_gradient(self, len(dim), dim, edge_order)
    return _uniform_gradient(self, [spacing] * len(dim), dim, edge_order)


def _gradient_scalar(self, spacing=None, dim=None, edge_order=1):
    dims = _all_dims(self, dim)
    size = None if spacing is None else len(dims)
    _check_gradient(self, size, None if dim is None else dims, edge_order)
    step = 1.0 if spacing is None else spacing
    return _uniform_gradient(self, [step] * len(dims), dims, edge_order)


def _gradient_scalars(self, spacing, dim=None, edge_order=1):
    dims = _all_dims(self, dim)
    _check_gradient(self, len(spacing), None if dim is None else dims, edge_order)
    return _uniform_gradient(self, spacing, dims, edge_order)


def _gradient_scalars_dims(self, spacing, dim, edge_order=1):
    _check_gradient(self, len(spacing), dim, edge_order)
    return _uniform_gradient(self, spacing, dim, edge_order)


def _gradient_tensors(self, spacing, dim=None, edge_order=1):
    dims = _all_dims(self, dim)
    _check_gradient(self, len(spacing), None if dim is None else dims, edge_order)
    return _coordinate_gradient(self, spacing, dims, edge_order)


def _gradient_tensors_dims(self, spacing, dim, edge_order=1):
    _check_gradient(self, len(spacing), dim, edge_order)
    return _coordinate_gradient(self, spacing, dim, edge_order)


# Declared in the order torch's Python binding tries (and lists) them.
_declare_gradient("gradient.array(Tensor self, *, int[] dim, int edge_order=1) -> Tensor[]",
                  _gradient_dims)
_declare_gradient("gradient.scalararray(Tensor self, *, Scalar spacing, int[] dim, "
                  "int edge_order=1) -> Tensor[]", _gradient_scalar_dims)
_declare_gradient("gradient.scalarint(Tensor self, *, Scalar? spacing=None, int? dim=None, "
                  "int edge_order=1) -> Tensor[]", _gradient_scalar)
_declare_gradient("gradient.scalarrayint(Tensor self, *, Scalar[] spacing, int? dim=None, "
                  "int edge_order=1) -> Tensor[]", _gradient_scalars)
_declare_gradient("gradient.scalarrayarray(Tensor self, *, Scalar[] spacing, int[] dim, "
                  "int edge_order=1) -> Tensor[]", _gradient_scalars_dims)
_declare_gradient("gradient.tensorarrayint(Tensor self, *, Tensor[] spacing, int? dim=None, "
                  "int edge_order=1) -> Tensor[]", _gradient_tensors)
_declare_gradient("gradient.tensorarray(Tensor self, *, Tensor[] spacing, int[] dim, "
                  "int edge_order=1) -> Tensor[]", _gradient_tensors_dims)


# ----------------------------------------------------------------------------------
# trapezoid, trapz, cumulative_trapezoid
# ----------------------------------------------------------------------------------
def _refuse_bool(name: str, *tensors) -> None:
    if any(t._dtype is dtypes.bool for t in tensors):
        what = "`y`" if len(tensors) == 1 else "`x` or `y`"
        raise RuntimeError(f"{name}: received a bool input for {what}, but bool is not "
                           f"supported")


def _real_step(name: str, dx) -> float:
    if isinstance(dx, (bool, complex)):
        raise RuntimeError(f"{name}: Currently, we only support dx as a real number.")
    return float(dx)


def _wrap_sample_dim(y, dim: int) -> int:
    """`dim` of `y` read as ``y.size(dim)`` reads it: a 0-dim `y` has no dims at all."""
    if y.dim() == 0:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    return wrap_dim(dim, y.dim())


def _steps(name: str, y, x, dim: int):
    """The widths ``x[1:] - x[:-1]`` along `dim`, shaped to broadcast against `y`'s.

    A 1-D `x` lies along `dim` and must have one value per sample; a shorter `x` is
    aligned to `y`'s last dims; widths broadcast against the sample pairs only after
    the differences are taken, as NumPy's trapz does.
    """
    if x.dim() == 1:
        if x._size[0] != y._size[dim]:
            raise RuntimeError(f"{name}: There must be one `x` value for each sample point")
        shape = [1] * y.dim()
        shape[dim] = x._size[0]
        x = x.view(shape)
    elif x.dim() < y.dim():
        x = x.view([1] * (y.dim() - x.dim()) + list(x._size))
    return _slice(x, dim, 1) - _slice(x, dim, 0, -1)


def _pair_sums(y, dim: int):
    """``y[i] + y[i + 1]`` along `dim`: each trapezoid's two heights."""
    return _slice(y, dim, 1) + _slice(y, dim, 0, -1)


def _nothing_to_integrate(y, dim: int):
    """Integrating zero samples gives zeros (of y's dtype, as NumPy's trapz)."""
    return y.new_zeros(y._size[:dim] + y._size[dim + 1:])


@composite("trapezoid.x(Tensor y, Tensor x, *, int dim=-1) -> Tensor")
def trapezoid_x(y, x, dim=-1):
    """The integral of the samples `y` along `dim` by the trapezoidal rule.

    Args:
        y (Tensor): the sample values.
        x (Tensor, optional): where the samples lie (one value per sample along
            `dim`, or a tensor broadcasting against `y`).

    Keyword args:
        dx (Number): the distance between samples when `x` is not given (1).
        dim (int): the dim to integrate along (the last by default).

    Example::

        >>> torch.trapezoid(torch.tensor([1., 4., 9.]))
        tensor(9.)
        >>> torch.trapezoid(torch.tensor([1., 4., 9.]), torch.tensor([0., 1., 3.]))
        tensor(15.5000)
    """
    dim = _wrap_sample_dim(y, dim)
    if y._size[dim] == 0:
        return _nothing_to_integrate(y, dim)
    _refuse_bool("trapezoid", y, x)
    widths = _steps("trapezoid", y, x, dim)
    return div_scalar.call(sum_dim.call(_pair_sums(y, dim) * widths, [dim], False, None), 2.0)


@composite("trapezoid.dx(Tensor y, *, Scalar dx=1, int dim=-1) -> Tensor")
def trapezoid_dx(y, dx=1, dim=-1):
    dim = _wrap_sample_dim(y, dim)
    if y._size[dim] == 0:
        return _nothing_to_integrate(y, dim)
    _refuse_bool("trapezoid", y)
    dx = _real_step("trapezoid", dx)
    # with even steps the rule is dx * (sum of all samples - half the two end ones)
    ends = select.call(y, dim, 0) + select.call(y, dim, -1)
    return mul_scalar.call(sum_dim.call(y, [dim], False, None) - mul_scalar.call(ends, 0.5), dx)


trapezoid_dx.declaration.doc = trapezoid_x.declaration.doc


@composite("trapz.x(Tensor y, Tensor x, *, int dim=-1) -> Tensor")
def trapz_x(y, x, dim=-1):
    """Another name for `torch.trapezoid` (with a float `dx`)."""
    return trapezoid_x.call(y, x, dim)


@composite("trapz.dx(Tensor y, *, float dx=1., int dim=-1) -> Tensor")
def trapz_dx(y, dx=1.0, dim=-1):
    """Another name for `torch.trapezoid` (with a float `dx`)."""
    return trapezoid_dx.call(y, dx, dim)


@composite("cumulative_trapezoid.x(Tensor y, Tensor x, *, int dim=-1) -> Tensor")
def cumulative_trapezoid_x(y, x, dim=-1):
    """The running integral of the samples `y` along `dim` by the trapezoidal rule:
    one value per interval, so `dim` is one shorter than `y`'s.

    Args:
        y (Tensor): the sample values.
        x (Tensor, optional): where the samples lie (as for `torch.trapezoid`).

    Keyword args:
        dx (Number): the distance between samples when `x` is not given (1).
        dim (int): the dim to integrate along (the last by default).

    Example::

        >>> torch.cumulative_trapezoid(torch.tensor([1., 4., 9.]))
        tensor([2.5000, 9.0000])
    """
    dim = wrap_dim(dim, y.dim())
    _refuse_bool("cumulative_trapezoid", y, x)
    widths = _steps("cumulative_trapezoid", y, x, dim)
    return div_scalar.call(cumsum.call(_pair_sums(y, dim) * widths, dim, None), 2.0)


@composite("cumulative_trapezoid.dx(Tensor y, *, Scalar dx=1, int dim=-1) -> Tensor")
def cumulative_trapezoid_dx(y, dx=1, dim=-1):
    _refuse_bool("cumulative_trapezoid", y)
    dx = _real_step("cumulative_trapezoid", dx)
    return cumsum.call(mul_scalar.call(_pair_sums(y, dim), dx / 2.0), dim, None)


cumulative_trapezoid_dx.declaration.doc = cumulative_trapezoid_x.declaration.doc
