"""torch.autograd.functional: jacobian, hessian, vjp, jvp, hvp, vhp (values by hand)."""
import math

import pytest

import glasstorch as torch

F = torch.autograd.functional


def vector(*values):
    return torch.tensor(values, dtype=torch.float64)


def test_jacobian_of_one_and_several_tensors():
    x = vector(1.0, 2.0)
    assert F.jacobian(lambda a: a * a, x).tolist() == [[2.0, 0.0], [0.0, 4.0]]
    y = vector(0.5, -1.0, 3.0)
    (d_first_x, d_first_y), (d_second_x, d_second_y) = F.jacobian(
        lambda a, b: (a.sum() * b, a * 2), (x, y))
    assert d_first_x.shape == (3, 2) and d_first_y.tolist() == [[3.0, 0, 0], [0, 3.0, 0],
                                                                 [0, 0, 3.0]]
    assert d_second_x.tolist() == [[2.0, 0.0], [0.0, 2.0]]
    assert d_second_y.tolist() == [[0.0] * 3] * 2              # independent: zeros
    with pytest.raises(RuntimeError, match="independent of input 1"):
        F.jacobian(lambda a, b: a * 2, (x, y), strict=True)


def test_vector_products():
    x = vector(1.0, 2.0)
    out, product = F.vjp(lambda a: a.exp(), x, vector(1.0, 1.0))
    assert product.tolist() == pytest.approx([math.e, math.e ** 2])
    out, product = F.jvp(lambda a: a * a, x, vector(1.0, 0.5))
    assert out.tolist() == [1.0, 4.0] and product.tolist() == [2.0, 2.0]


def test_second_order():
    x = vector(1.0, 2.0, 3.0)
    cube_sum = lambda a: (a * a * a).sum()             # noqa: E731
    assert F.hessian(cube_sum, x).tolist() == [[6.0, 0, 0], [0, 12.0, 0], [0, 0, 18.0]]
    value, product = F.hvp(cube_sum, x, vector(1.0, 1.0, 1.0))
    assert value.item() == 36.0 and product.tolist() == [6.0, 12.0, 18.0]
    assert F.vhp(cube_sum, x, vector(1.0, 0.0, 0.0))[1].tolist() == [6.0, 0.0, 0.0]


def test_inputs_must_be_tensors():
    with pytest.raises(TypeError, match="must be either a Tensor or a tuple of Tensors"):
        F.jacobian(lambda a: a, [1.0])
