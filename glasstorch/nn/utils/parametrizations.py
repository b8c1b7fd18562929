"""torch.nn.utils.parametrizations: orthogonal, weight-normalized and spectrally normalized
weights, built on `parametrize` (Note [Parametrizations]).

Note [Orthogonal maps]
    An orthogonal (unitary) ``n x k`` matrix Q (``n >= k``; a wide one is handled
    transposed) is computed from an unconstrained matrix X in one of three ways: the
    matrix exponential or the Cayley transform ``(I - A/2)⁻¹ (I + A/2)`` of the
    skew-symmetric ``A = X.tril() - X.tril().mH`` (padded to ``n x n`` and cut back to k
    columns), or the product of the Householder reflectors stored below X's diagonal.
    With ``use_trivialization`` (the default) the result is multiplied by a `base`
    orthogonal matrix kept as a buffer: assigning Q stores Q itself as the base and the
    X that maps to the identity, so assignment is exact and cheap.
"""
from __future__ import annotations

from enum import Enum, auto

import glasstorch as torch

from ...autograd.grad_mode import no_grad
from .. import functional as F
from ..modules.conv import ConvTranspose1d, ConvTranspose2d, ConvTranspose3d
from ..modules.module import Module
from . import parametrize

__all__ = ["orthogonal", "spectral_norm", "weight_norm"]


def _is_orthogonal(Q) -> bool:
    n, k = Q.size(-2), Q.size(-1)
    identity = torch.eye(k, dtype=Q.dtype, device=Q.device)
    return torch.allclose(Q.mH @ Q, identity, atol=10.0 * n * torch.finfo(Q.dtype).eps)


def _make_orthogonal(A):
    """The Q of A's QR decomposition, its columns signed so that R's diagonal is
    positive (a canonical choice, for inputs of full rank)."""
    X, tau = torch.geqrf(A)
    Q = torch.linalg.householder_product(X, tau)
    Q *= X.diagonal(dim1=-2, dim2=-1).sgn().unsqueeze(-2)
    return Q


class _OrthMaps(Enum):
    matrix_exp = auto()
    cayley = auto()
    householder = auto()


class _Orthogonal(Module):
    """The orthogonal parametrization (Note [Orthogonal maps])."""

    base: torch.Tensor

    def __init__(self, weight, orthogonal_map: _OrthMaps, *,
                 use_trivialization: bool = True) -> None:
        super().__init__()
        if weight.is_complex() and orthogonal_map == _OrthMaps.householder:
            raise ValueError("The householder parametrization does not support complex "
                             "tensors.")
        self.shape = weight.shape
        self.orthogonal_map = orthogonal_map
        if use_trivialization:
            self.register_buffer("base", None)

    def forward(self, X):
        n, k = X.size(-2), X.size(-1)
        transposed = n < k
        if transposed:
            X = X.mT
            n, k = k, n
        if self.orthogonal_map == _OrthMaps.householder:
            A = X.tril(diagonal=-1)
            tau = 2.0 / (1.0 + (A * A).sum(dim=-2))
            Q = torch.linalg.householder_product(A, tau)
            Q = Q * X.diagonal(dim1=-2, dim2=-1).int().unsqueeze(-2)
        else:
            Q = self._from_skew(X, n, k)
        if hasattr(self, "base"):
            Q = self.base @ Q
        return Q.mT if transposed else Q

    def _from_skew(self, X, n: int, k: int):
        X = X.tril()
        if n != k:
            X = torch.cat([X, X.new_zeros(n, n - k).expand(*X.shape[:-2], -1, -1)], dim=-1)
        A = X - X.mH
        if self.orthogonal_map == _OrthMaps.matrix_exp:
            Q = torch.matrix_exp(A)
        else:
            identity = torch.eye(n, dtype=A.dtype, device=A.device)
            Q = torch.linalg.solve(torch.add(identity, A, alpha=-0.5),
                                   torch.add(identity, A, alpha=0.5))
        return Q[..., :k] if n != k else Q

    @no_grad()
    def right_inverse(self, Q):
        if Q.shape != self.shape:
            raise ValueError(f"Expected a matrix or batch of matrices of shape {self.shape}. "
                             f"Got a tensor of shape {Q.shape}.")
        given = Q
        n, k = Q.size(-2), Q.size(-1)
        transposed = n < k
        if transposed:
            Q = Q.mT
            n, k = k, n
        if not hasattr(self, "base"):
            return self._reflectors_of(Q, transposed)
        if n == k:
            Q = Q.clone() if _is_orthogonal(Q) else _make_orthogonal(Q)
        else:       # completed to a square orthogonal matrix by random columns
            filler = torch.randn(*Q.size()[:-2] + (n, n - k), dtype=Q.dtype, device=Q.device)
            Q = _make_orthogonal(torch.cat([Q, filler], dim=-1))
        self.base = Q
        # the X that maps to minus the identity: base @ Q(X) is then Q's columns, signed
        negative_identity = torch.zeros_like(given)
        negative_identity.diagonal(dim1=-2, dim2=-1).fill_(-1.0)
        return negative_identity

    def _reflectors_of(self, Q, transposed: bool):
        if self.orthogonal_map != _OrthMaps.householder:
            raise NotImplementedError("It is not possible to assign to the matrix exponential "
                                      "or the Cayley parametrizations when "
                                      "use_trivialization=False.")
        A, tau = torch.geqrf(Q)
        # the diagonal holds the signs the forward multiplies by (-1 where tau is 0)
        A.diagonal(dim1=-2, dim2=-1).sign_()
        A.diagonal(dim1=-2, dim2=-1)[tau == 0.0] *= -1
        return A.mT if transposed else A


def orthogonal(module: Module, name: str = "weight", orthogonal_map: str | None = None, *,
               use_trivialization: bool = True) -> Module:
    """Parametrize ``module.<name>`` as an orthogonal (unitary) matrix or batch of them
    (Note [Orthogonal maps]); its current value is kept, made orthogonal if it is not.

    Args:
        module (Module): the module.
        name (str): the tensor's name (default ``"weight"``).
        orthogonal_map (str, optional): ``"matrix_exp"``, ``"cayley"`` or
            ``"householder"``; default: ``"matrix_exp"`` for square or complex
            matrices, ``"householder"`` otherwise.
        use_trivialization (bool): keep a base orthogonal matrix as a buffer, which makes
            assignment exact (default True).

    Returns:
        Module: `module`, with the parametrization registered.

    Example::

        >>> m = orthogonal(nn.Linear(20, 40))
        >>> Q = m.weight
        >>> torch.dist(Q.T @ Q, torch.eye(20)) < 1e-4
        tensor(True)
    """
    weight = getattr(module, name, None)
    if not isinstance(weight, torch.Tensor):
        raise ValueError(f"Module '{module}' has no parameter or buffer with name '{name}'")
    if weight.ndim < 2:
        raise ValueError(f"Expected a matrix or batch of matrices. Got a tensor of "
                         f"{weight.ndim} dimensions.")
    if orthogonal_map is None:
        square = weight.size(-2) == weight.size(-1)
        orthogonal_map = "matrix_exp" if square or weight.is_complex() else "householder"
    chosen = getattr(_OrthMaps, orthogonal_map, None)
    if chosen is None:
        raise ValueError('orthogonal_map has to be one of "matrix_exp", "cayley", '
                         f'"householder". Got: {orthogonal_map}')
    parametrization = _Orthogonal(weight, chosen, use_trivialization=use_trivialization)
    parametrize.register_parametrization(module, name, parametrization, unsafe=True)
    return module


class _WeightNorm(Module):
    """``g * v / ‖v‖`` from the two originals ``(g, v)`` (Note [Weight norm] in
    aten/native/nn/weight_norm.py)."""

    def __init__(self, dim: int | None = 0) -> None:
        super().__init__()
        self.dim = -1 if dim is None else dim

    def forward(self, weight_g, weight_v):
        return torch._weight_norm(weight_v, weight_g, self.dim)

    def right_inverse(self, weight):
        return torch.norm_except_dim(weight, 2, self.dim), weight


def weight_norm(module: Module, name: str = "weight", dim: int = 0) -> Module:
    """Parametrize ``module.<name>`` by a magnitude and a direction: the originals
    ``original0`` (the magnitude ``g``, one value per slice along `dim`) and
    ``original1`` (the direction ``v``), with ``weight = g * v / ‖v‖``.

    State dicts saved with the older hook-based `torch.nn.utils.weight_norm`
    (``<name>_g`` / ``<name>_v`` keys) load into it.

    Args:
        module (Module): the module.
        name (str): the tensor's name (default ``"weight"``).
        dim (int, optional): the dim the magnitude runs along (default 0); None for one
            magnitude for the whole tensor.

    Returns:
        Module: `module`, with the parametrization registered.

    Example::

        >>> m = weight_norm(nn.Linear(20, 40), name="weight")
        >>> m.parametrizations.weight.original0.size()
        torch.Size([40, 1])
    """
    parametrize.register_parametrization(module, name, _WeightNorm(dim), unsafe=True)

    def load_old_keys(state_dict, prefix, local_metadata, strict, missing_keys,
                      unexpected_keys, error_msgs) -> None:
        g_key, v_key = f"{prefix}{name}_g", f"{prefix}{name}_v"
        if g_key in state_dict and v_key in state_dict:
            state_dict[f"{prefix}parametrizations.{name}.original0"] = state_dict.pop(g_key)
            state_dict[f"{prefix}parametrizations.{name}.original1"] = state_dict.pop(v_key)
    module._register_load_state_dict_pre_hook(load_old_keys)
    return module


class _SpectralNorm(Module):
    """The weight divided by its largest singular value, estimated by power iteration on
    the weight seen as a matrix (`dim` first), one step per training-mode read."""

    def __init__(self, weight, n_power_iterations: int = 1, dim: int = 0,
                 eps: float = 1e-12) -> None:
        super().__init__()
        ndim = weight.ndim
        if dim >= ndim or dim < -ndim:
            raise IndexError(f"Dimension out of range (expected to be in range of "
                             f"[-{ndim}, {ndim - 1}] but got {dim})")
        if n_power_iterations <= 0:
            raise ValueError("Expected n_power_iterations to be positive, but got "
                             f"n_power_iterations={n_power_iterations}")
        self.dim = dim if dim >= 0 else dim + ndim
        self.eps = eps
        if ndim > 1:
            self.n_power_iterations = n_power_iterations
            matrix = self._reshape_weight_to_matrix(weight)
            rows, columns = matrix.size()
            u = matrix.new_empty(rows).normal_(0, 1)
            v = matrix.new_empty(columns).normal_(0, 1)
            self.register_buffer("_u", F.normalize(u, dim=0, eps=self.eps))
            self.register_buffer("_v", F.normalize(v, dim=0, eps=self.eps))
            self._power_method(matrix, 15)       # a good start for the estimate

    def _reshape_weight_to_matrix(self, weight):
        if self.dim != 0:
            weight = weight.permute(self.dim, *(d for d in range(weight.dim()) if d != self.dim))
        return weight.flatten(1)

    @no_grad()
    def _power_method(self, matrix, n_power_iterations: int) -> None:
        # written into the buffers in place: the next read starts from them
        for _ in range(n_power_iterations):
            self._u = F.normalize(torch.mv(matrix, self._v), dim=0, eps=self.eps, out=self._u)
            self._v = F.normalize(torch.mv(matrix.H, self._u), dim=0, eps=self.eps,
                                  out=self._v)

    def forward(self, weight):
        if weight.ndim == 1:
            return F.normalize(weight, dim=0, eps=self.eps)
        matrix = self._reshape_weight_to_matrix(weight)
        if self.training:
            self._power_method(matrix, self.n_power_iterations)
        # clones: the buffers change in place at the next training-mode read
        u = self._u.clone(memory_format=torch.contiguous_format)
        v = self._v.clone(memory_format=torch.contiguous_format)
        sigma = torch.vdot(u, torch.mv(matrix, v))
        return weight / sigma

    def right_inverse(self, value):
        return value


def spectral_norm(module: Module, name: str = "weight", n_power_iterations: int = 1,
                  eps: float = 1e-12, dim: int | None = None) -> Module:
    """Parametrize ``module.<name>`` divided by its spectral norm (largest singular
    value), estimated by power iteration; the vectors ``_u`` and ``_v`` are buffers of
    the parametrization, updated at every read in training mode.

    Args:
        module (Module): the module.
        name (str): the tensor's name (default ``"weight"``).
        n_power_iterations (int): power-iteration steps per read (default 1).
        eps (float): guards the normalizations (default 1e-12).
        dim (int, optional): the dim of the output channels (default 0, 1 for
            ConvTranspose modules).

    Returns:
        Module: `module`, with the parametrization registered.

    Example::

        >>> snm = spectral_norm(nn.Linear(20, 40))
        >>> torch.linalg.matrix_norm(snm.weight, 2)
        tensor(1.0081, grad_fn=<AmaxBackward0>)
    """
    weight = getattr(module, name, None)
    if not isinstance(weight, torch.Tensor):
        raise ValueError(f"Module '{module}' has no parameter or buffer with name '{name}'")
    if dim is None:
        transposed = (ConvTranspose1d, ConvTranspose2d, ConvTranspose3d)
        dim = 1 if isinstance(module, transposed) else 0
    parametrize.register_parametrization(
        module, name, _SpectralNorm(weight, n_power_iterations, dim, eps))
    return module
