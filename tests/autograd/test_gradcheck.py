"""gradcheck / gradgradcheck: real, complex, non-contiguous inputs, and a wrong backward."""
import pytest

import glasstorch as torch


def double(values, dtype=torch.float64):
    return torch.tensor(values, dtype=dtype, requires_grad=True)


def test_formulas_pass_gradcheck():
    x = double([1.0, 2.0, 3.0])
    assert torch.autograd.gradcheck(lambda a: (a * a).exp().sin(), (x,))
    square = double([[0.5, -1.0], [2.0, 3.0]])
    assert torch.autograd.gradcheck(lambda a: a.t() * 3 + a, (square.t(),))


def test_second_derivatives():
    x = double([1.0, 2.0, 3.0])
    assert torch.autograd.gradgradcheck(lambda a: a * a * a, (x,))
    assert torch.autograd.gradgradcheck(lambda a, b: (a * b).exp(), (x, double([0.1, 0.2, 0.3])))


def test_complex_inputs_follow_torchs_convention():
    z = double([1 + 2j, -0.5 + 1j], torch.complex128)
    assert torch.autograd.gradcheck(lambda a: a * a * (2 - 1j), (z,))
    assert torch.autograd.gradcheck(lambda a: (a * a.conj()).real, (z,))


def test_a_wrong_backward_is_reported():
    class WrongScale(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            return a * 2

        @staticmethod
        def backward(ctx, grad):
            return grad * 3
    x = double([1.0, 2.0])
    with pytest.raises(torch.autograd.GradcheckError,
                       match=r"^Jacobian mismatch for output 0 with respect to input 0,"):
        torch.autograd.gradcheck(WrongScale.apply, (x,))
    assert not torch.autograd.gradcheck(WrongScale.apply, (x,), raise_exception=False)


def test_single_precision_inputs_warn():
    with pytest.warns(UserWarning, match="is not a double precision floating point"):
        torch.autograd.gradcheck(lambda a: a * 2, (torch.ones(2, requires_grad=True),),
                                 eps=1e-2, atol=1e-2)
