"""torch.library.opcheck: the same verdicts as torch's for the same operators."""
import itertools

import pytest

import glasstorch as gt

torch = pytest.importorskip("torch")
_counter = itertools.count()


def verdicts(t, build, args_of):
    """opcheck's results with torch or glasstorch: "SUCCESS" or the exception's type."""
    op = build(t, f"opc{'t' if t is torch else 'g'}{next(_counter)}")
    results = t.library.opcheck(op, args_of(t), raise_exception=False)
    return {test: r if r == "SUCCESS" else type(r).__name__ for test, r in results.items()}


def square(t, ns, fake=None, backward=False):
    @t.library.custom_op(f"{ns}::sq", mutates_args=())
    def sq(x: t.Tensor) -> t.Tensor:
        return t.from_numpy(x.detach().numpy() ** 2)
    if fake is not None:
        sq.register_fake(fake(t))
    if backward:
        sq.register_autograd(lambda ctx, g: g * 2, setup_context=lambda ctx, inputs, output: None)
    return sq


CASES = {
    "no fake, no backward": lambda t, ns: square(t, ns),
    "fake": lambda t, ns: square(t, ns, fake=lambda t: lambda x: t.empty_like(x)),
    "fake and backward": lambda t, ns: square(t, ns, lambda t: lambda x: t.empty_like(x), True),
    "wrong fake shape": lambda t, ns: square(t, ns, fake=lambda t: lambda x: t.empty(4)),
}


@pytest.mark.parametrize("case", list(CASES))
@pytest.mark.parametrize("requires_grad", [False, True])
def test_verdicts_as_torch(case, requires_grad):
    def args_of(t):
        return (t.tensor([1.0, 2.0, 3.0], requires_grad=requires_grad),)
    assert verdicts(gt, CASES[case], args_of) == verdicts(torch, CASES[case], args_of)


def test_undeclared_mutation_is_caught():
    for t in (torch, gt):
        @t.library.custom_op(f"opcm{next(_counter)}::bad", mutates_args=())
        def bad(x: t.Tensor) -> t.Tensor:
            x.add_(1)
            return x.clone()
        result = t.library.opcheck(bad, (t.ones(3),), test_utils="test_schema",
                                   raise_exception=False)["test_schema"]
        assert str(result) == "Argument x is not defined as mutable but was mutated"


def test_fake_mismatch_message_and_raising():
    op = square(gt, f"opcf{next(_counter)}", fake=lambda t: lambda x: t.empty(4))
    with pytest.raises(Exception, match=r"opcheck\(op, \.\.\.\): test_faketensor failed with "
                                        r"When comparing the output of .*sq.default on "
                                        r"FakeTensor and concrete Tensors, found mismatched "
                                        r"tensor metadata: Shapes torch.Size\(\[3\]\) and "
                                        r"torch.Size\(\[4\]\) are not equal!"):
        gt.library.opcheck(op, (gt.ones(3),), test_utils=["test_faketensor"])
    with pytest.raises(ValueError, match="expected test_utils to be subset of"):
        gt.library.opcheck(op, (gt.ones(3),), test_utils=("bogus",))


def test_autograd_through_a_backend_kernel_is_reported():
    for t in (torch, gt):
        ns = f"opca{next(_counter)}"
        lib = t.library.Library(ns, "FRAGMENT")
        lib.define("f(Tensor x) -> Tensor")
        lib.impl("f", lambda x: x * 2, "CPU")
        op = getattr(t.ops, ns).f.default
        x = t.ones(2, requires_grad=True)
        result = t.library.opcheck(op, (x,), test_utils="test_autograd_registration",
                                   raise_exception=False)["test_autograd_registration"]
        assert isinstance(result, AssertionError)
        assert "at least one output of this operator has requires_grad=True" in str(result)
