"""Custom autograd Functions: both forward styles, ctx, dirty and non-differentiable
outputs, identity outputs, wrong gradient counts (messages are torch's)."""
import pytest

import glasstorch as torch


class Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, k):
        ctx.save_for_backward(x)
        ctx.k = k
        return x * x * k

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        return 2 * x * grad * ctx.k, None


def test_forward_with_ctx_and_saved_tensors():
    x = torch.tensor([3.0, 4.0], requires_grad=True)
    y = Square.apply(x, 2.0)
    assert type(y.grad_fn).__name__ == "SquareBackward"
    assert repr(y) == "tensor([18., 32.], grad_fn=<SquareBackward>)"
    assert len(y.grad_fn.next_functions) == 1            # tensor inputs only
    y.sum().backward()
    assert x.grad.tolist() == [12.0, 16.0]
    with pytest.raises(RuntimeError, match="^Trying to backward through the graph a second"):
        y.grad_fn.saved_tensors


def test_setup_context_and_non_differentiable_outputs():
    class Double(torch.autograd.Function):
        @staticmethod
        def forward(x):
            return x * 2, x > 3

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.mark_non_differentiable(output[1])

        @staticmethod
        def backward(ctx, grad, mask_grad):
            return grad * 2
    x = torch.tensor([3.0, 4.0], requires_grad=True)
    doubled, mask = Double.apply(x)
    assert doubled.requires_grad and not mask.requires_grad
    assert torch.autograd.grad(doubled.sum(), x)[0].tolist() == [2.0, 2.0]


def test_returned_input_becomes_a_new_view():
    class Identity(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x

        @staticmethod
        def backward(ctx, grad):
            return grad * 5
    x = torch.tensor([1.0], requires_grad=True)
    y = Identity.apply(x)
    assert y is not x and y._base is x
    assert torch.autograd.grad(y.sum(), x)[0].tolist() == [5.0]


def test_dirty_inputs_take_the_node():
    class DoubleInPlace(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.mark_dirty(x)
            return x.mul_(2)

        @staticmethod
        def backward(ctx, grad):
            return grad * 2
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    z = x * 1
    assert DoubleInPlace.apply(z) is z and z.grad_fn.name() == "DoubleInPlaceBackward"
    with pytest.raises(RuntimeError, match="^a leaf Variable that requires grad has been used "
                                           "in an in-place operation"):
        DoubleInPlace.apply(x)


def test_wrong_number_of_gradients():
    class Add(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, y):
            return x + y

        @staticmethod
        def backward(ctx, grad):
            return grad
    x = torch.tensor([1.0], requires_grad=True)
    with pytest.raises(RuntimeError, match=r"^function AddBackward returned an incorrect "
                                           r"number of gradients \(expected 2, got 1\)$"):
        torch.autograd.grad(Add.apply(x, x).sum(), x)


def test_needs_input_grad_and_once_differentiable():
    class Product(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a, b, scale):
            ctx.flags = ctx.needs_input_grad
            ctx.save_for_backward(a, b)
            return a * b * scale

        @staticmethod
        @torch.autograd.function.once_differentiable
        def backward(ctx, grad):
            a, b = ctx.saved_tensors
            return grad * b, grad * a, None
    a = torch.tensor([2.0], requires_grad=True)
    out = Product.apply(a, torch.tensor([3.0]), 1.0)
    assert out.grad_fn.flags == (True, False, False)
    grad, = torch.autograd.grad(out.sum(), a, create_graph=True)
    assert grad.tolist() == [3.0] and not grad.requires_grad


def test_jvp_gives_forward_mode_tangents():
    fwAD = torch.autograd.forward_ad

    class Scaled(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, k):
            ctx.save_for_forward(x)
            ctx.k = k
            return x * x * k

        @staticmethod
        def jvp(ctx, x_tangent, k_tangent):
            x, = ctx.saved_tensors
            return 2 * x * x_tangent * ctx.k

        @staticmethod
        def backward(ctx, grad):
            return grad, None

    class WithoutJvp(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, grad):
            return grad
    with fwAD.dual_level():
        dual = fwAD.make_dual(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 1.0]))
        primal, tangent = fwAD.unpack_dual(Scaled.apply(dual, 3.0))
        assert primal.tolist() == [3.0, 12.0] and tangent.tolist() == [6.0, 12.0]
        with pytest.raises(NotImplementedError, match="^You must implement the jvp function"):
            WithoutJvp.apply(dual)


class PassThrough(torch.autograd.Function):
    """Returns its inputs as they are, marking those that need no grad (as the identity
    Function of a Module's backward hooks does)."""

    @staticmethod
    def forward(ctx, *args):
        ctx.mark_non_differentiable(*[a for a in args if not a.requires_grad])
        return args

    @staticmethod
    def backward(ctx, *grads):
        return grads


def test_returned_input_marked_non_differentiable_stays_so():
    a = torch.ones(2, requires_grad=True)
    b = torch.ones(2)
    out_a, out_b = PassThrough.apply(a, b)
    assert out_a.grad_fn is not None
    assert out_b.grad_fn is None and not out_b.requires_grad


def test_post_hook_sees_the_gradient_returned_for_an_input_needing_none():
    a, b = torch.ones(2, requires_grad=True), torch.ones(2)
    out_a, out_b = PassThrough.apply(a, b)
    seen = []
    out_a.grad_fn.register_hook(lambda grad_inputs, _: seen.append(grad_inputs))
    out_a.sum().backward()
    assert seen[0][0].tolist() == [1.0, 1.0]
    assert seen[0][1].tolist() == [0.0, 0.0]      # materialised, kept as torch keeps it
