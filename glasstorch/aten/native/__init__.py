"""Operator declarations by family; importing this package registers them all."""
from . import view, factory, ranges, copy, shape, conversion  # noqa: F401
from . import unary, binary, binary_scalar  # noqa: F401
from . import trigonometric, rounding, predicates, conj  # noqa: F401
from . import comparison, bitwise  # noqa: F401
from . import division, power, minmax, binary_math, ternary  # noqa: F401
from . import special, clamp  # noqa: F401
from . import reduction, extrema, moments, norms  # noqa: F401
from . import sort, order_statistics, quantile  # noqa: F401
from . import bucketing, histogram, unique  # noqa: F401
from . import triangular, diagonal  # noqa: F401
from . import indexing, scatter, index_along, masked  # noqa: F401
from . import blas, addmm, matmul, einsum  # noqa: F401
from . import join, repeat, combine, resize  # noqa: F401
from . import scan  # noqa: F401
from . import random, random_factories, sampling  # noqa: F401
from . import integration  # noqa: F401
from . import distance, statistics  # noqa: F401
from . import softmax  # noqa: F401
from . import activation, activation_smooth, activation_gelu, activation_gated  # noqa: F401
from . import activation_rrelu  # noqa: F401
from . import loss_regression, loss_nll, loss_cross_entropy, loss_binary  # noqa: F401
from . import dropout  # noqa: F401
from . import normalization  # noqa: F401
from . import embedding  # noqa: F401
from . import padding  # noqa: F401
from . import attention  # noqa: F401
from . import padding_modes  # noqa: F401
