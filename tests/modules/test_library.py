"""torch.library: operators defined from Python dispatch as built-in ones (differential)."""
import itertools

import pytest

import glasstorch as gt

torch = pytest.importorskip("torch")
_counter = itertools.count()


def fresh(prefix="gtlib"):
    """A namespace no earlier test used (operators live as long as the process)."""
    return f"{prefix}{next(_counter)}"


def both(fn):
    """Run `fn(lib_module, namespace)` with torch and glasstorch, each in a new namespace."""
    return fn(torch, fresh("tlib")), fn(gt, fresh())


def square_op(t, ns):
    @t.library.custom_op(f"{ns}::square", mutates_args=())
    def square(x: t.Tensor) -> t.Tensor:
        return t.from_numpy(x.detach().numpy() ** 2)
    return square


def test_custom_op_runs_and_is_in_torch_ops():
    for t, ns in zip((torch, gt), (fresh("tlib"), fresh())):
        square = square_op(t, ns)
        assert repr(square) == f"<CustomOpDef({ns}::square)>"
        x = t.tensor([1.0, 2.0, 3.0])
        assert square(x).tolist() == [1.0, 4.0, 9.0]
        packet = getattr(t.ops, ns).square
        assert packet(x).tolist() == [1.0, 4.0, 9.0]
        assert str(packet.default._schema).endswith("square(Tensor x) -> Tensor")


def test_custom_op_meta_without_and_with_fake():
    for t, ns in ((torch, fresh("tlib")), (gt, fresh())):
        square = square_op(t, ns)
        with pytest.raises(RuntimeError, match=r"There was no fake impl registered for "
                                               rf"<CustomOpDef\({ns}::square\)>"):
            square(t.empty(3, device="meta"))
        square.register_fake(lambda x: t.empty_like(x))
        out = square(t.empty(2, 3, device="meta"))
        assert out.device.type == "meta" and tuple(out.shape) == (2, 3)


def test_custom_op_backward_refused_then_registered():
    results = []
    for t, ns in ((torch, fresh("tlib")), (gt, fresh())):
        square = square_op(t, ns)
        x = t.tensor([1.0, 2.0, 3.0], requires_grad=True)
        y = square(x)
        assert y.requires_grad
        assert type(y.grad_fn).__name__ == f"GeneratedBackwardFor_{ns}_square_defaultBackward"
        with pytest.raises(RuntimeError, match=f"Trying to backward through {ns}.square.default "
                                               "but no autograd formula was registered"):
            y.sum().backward()

        def setup(ctx, inputs, output):
            ctx.save_for_backward(inputs[0])

        def backward(ctx, grad):
            (x,) = ctx.saved_tensors
            return 2 * x * grad
        square.register_autograd(backward, setup_context=setup)
        square(x).sum().backward()
        results.append(x.grad.tolist())
    assert results[0] == results[1] == [2.0, 4.0, 6.0]


def test_register_kernel_replaces_the_cpu_kernel():
    square = square_op(gt, fresh())
    square.register_kernel("cpu", lambda x: x + 100)
    assert square(gt.tensor([1.0])).tolist() == [101.0]


def test_library_define_impl_keyword_only():
    for t, ns in ((torch, fresh("tlib")), (gt, fresh())):
        lib = t.library.Library(ns, "DEF")
        assert repr(lib) == f"Library(kind=DEF, ns={ns}, dispatch_key=)>"
        assert lib.define("scale(Tensor x, *, float alpha=1.0) -> Tensor") == "scale"
        assert lib.define("scale.twice(Tensor x) -> Tensor") == "scale"
        lib.impl("scale", lambda x, alpha=1.0: x * alpha, "CPU")
        lib.impl("scale.twice", lambda x: x * 2, "CompositeImplicitAutograd")
        op = getattr(t.ops, ns).scale
        assert op(t.ones(2), alpha=3.0).tolist() == [3.0, 3.0]
        assert op.twice(t.ones(2)).tolist() == [2.0, 2.0]
        x = t.ones(2, requires_grad=True)
        op(x, alpha=3.0).sum().backward()      # the kernel's own operators record
        assert x.grad.tolist() == [3.0, 3.0]
        assert op.twice(t.empty(4, device="meta")).shape == (4,)   # composite: every backend
        with pytest.raises(NotImplementedError, match=f"{ns}::scale: attempted to run this "
                                                      "operator with Meta tensors"):
            op(t.empty(2, device="meta"))


def test_library_refusals_as_torch():
    for t, ns in ((torch, fresh("tlib")), (gt, fresh())):
        lib = t.library.Library(ns, "DEF")
        lib.define("f(Tensor x) -> Tensor")
        with pytest.raises(RuntimeError, match=r"Tried to register an operator \(" + ns):
            lib.define("f(Tensor x) -> Tensor")
        with pytest.raises(RuntimeError, match=f"Only a single TORCH_LIBRARY can be used to "
                                               f"register the namespace {ns};"):
            t.library.Library(ns, "DEF")
        with pytest.raises(ValueError, match="Unsupported kind: XYZ"):
            t.library.Library(ns, "XYZ")
        with pytest.raises(RuntimeError, match="Cannot define an operator inside of a "
                                               "TORCH_LIBRARY_IMPL block"):
            t.library.Library(ns, "IMPL").define("g(Tensor x) -> Tensor")
        with pytest.raises(RuntimeError, match="Invalid alias_analysis type XX"):
            lib.define("h(Tensor x) -> Tensor", alias_analysis="XX")


def test_functional_define_impl_register_fake_and_autograd():
    for t, ns in ((torch, fresh("tlib")), (gt, fresh())):
        t.library.define(f"{ns}::mul3", "(Tensor x) -> Tensor")

        @t.library.impl(f"{ns}::mul3", "cpu")
        def mul3(x):
            return t.from_numpy(x.detach().numpy() * 3)

        t.library.register_fake(f"{ns}::mul3", lambda x: t.empty_like(x))
        t.library.register_autograd(f"{ns}::mul3", lambda ctx, g: g * 3)
        x = t.tensor([1.0, 2.0], requires_grad=True)
        y = getattr(t.ops, ns).mul3(x)
        y.sum().backward()
        assert y.tolist() == [3.0, 6.0] and x.grad.tolist() == [3.0, 3.0]
        assert getattr(t.ops, ns).mul3(t.empty(5, device="meta")).shape == (5,)


def test_dispatch_modes_see_library_operators():
    from glasstorch.utils._python_dispatch import TorchDispatchMode
    square = square_op(gt, ns := fresh())
    seen = []

    class Log(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            seen.append(str(func.event_name))
            return func(*args, **(kwargs or {}))
    with Log():
        square(gt.tensor([2.0]))
    assert f"{ns}::square" in seen


def test_infer_schema_as_torch():
    from typing import Optional, Sequence

    def make(t):
        def f(x: t.Tensor, y: float, n: int, flag: bool, s: str, ts: list[t.Tensor],
              o: Optional[t.Tensor], seq: Sequence[int], d: t.dtype, z: int = 3,
              w: Optional[float] = None, *, q: float = 2.5) -> tuple[t.Tensor, t.Tensor]: ...

        def g(x: t.Tensor, out: t.Tensor) -> None: ...
        return (t.library.infer_schema(f, mutates_args=()),
                t.library.infer_schema(g, mutates_args={"out"}, op_name="g"))
    assert make(gt) == make(torch)
    for fn in (lambda x: x, lambda x: None):
        with pytest.raises(ValueError) as theirs:
            torch.library.infer_schema(fn, mutates_args=())
        with pytest.raises(ValueError) as ours:
            gt.library.infer_schema(fn, mutates_args=())
        assert str(ours.value).split(" Got")[0] == str(theirs.value).split(" Got")[0]


def test_names_torch_has_and_glasstorch_lacks_say_so():
    with pytest.raises(AttributeError, match="does not implement torch.library.triton_op yet"):
        gt.library.triton_op
    assert set(gt.library.__all__) <= set(dir(torch.library))


def test_dispatch_key_names():
    for t, ns in ((torch, fresh("tlib")), (gt, fresh())):
        lib = t.library.Library(ns, "FRAGMENT")
        lib.define("f(Tensor x) -> Tensor")
        with pytest.raises(RuntimeError, match="could not parse dispatch key: NotAKey"):
            lib.impl("f", lambda x: x, "NotAKey")
        lib.impl("f", lambda x: x + 1, "CUDA")          # accepted; never runs on the CPU
        lib.impl("f", lambda x: x * 2, "CPU")
        assert getattr(t.ops, ns).f(t.ones(1)).tolist() == [2.0]
        with pytest.warns(FutureWarning, match="impl_abstract` was renamed"):
            t.library.impl_abstract(f"{ns}::f", lambda x: t.empty_like(x), lib=lib)
        assert getattr(t.ops, ns).f(t.ones(2, device="meta")).shape == (2,)


def test_fallthrough_kernel_passes_the_key_through():
    ns = fresh()
    square = square_op(gt, ns)                  # a custom op: it has an Autograd kernel
    gt.library.Library(ns, "FRAGMENT").impl("square", gt.library.fallthrough_kernel,
                                            "Autograd")
    x = gt.tensor([2.0], requires_grad=True)
    assert square(x).grad_fn is None            # autograd passed through: nothing recorded
