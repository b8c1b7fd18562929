"""torch.masked.MaskedTensor against torch's: construction and its refusals, printing,
the unary / binary / reduction / shape operators, the operators it refuses, and
gradients, which reach the data through present elements only."""
import copy
import warnings

import pytest

import glasstorch as gt

torch = pytest.importorskip("torch")

DATA = [[1.0, -2.0, 3.0], [4.0, 5.0, -6.0]]
MASK = [[True, False, True], [False, True, True]]


@pytest.fixture(autouse=True)
def quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")      # the prototype warning, on every result
        yield


def both(expression: str, data=DATA, mask=MASK, requires_grad=False):
    """repr of `expression` evaluated with `mt` (and `data`, `mask`) in torch and here."""
    texts = []
    for lib in (torch, gt):
        env = {"torch": lib, "data": lib.tensor(data), "mask": lib.tensor(mask)}
        env["mt"] = lib.masked.masked_tensor(env["data"], env["mask"], requires_grad)
        texts.append(repr(eval(expression, env)))
    return texts


@pytest.mark.parametrize("expression", [
    "mt", "mt[0]", "mt[1, 0]", "mt.sum()", "mt.bool()", "mt.int() * 100",
    "torch.masked.masked_tensor(torch.tensor([[[1., 2.]]]), torch.tensor([[[False, True]]]))"])
def test_prints_as_torch(expression):
    theirs, ours = both(expression)
    assert ours == theirs


@pytest.mark.parametrize("expression", [
    "mt.sin()", "torch.exp(mt)", "mt.abs().sqrt()", "mt.clamp(1, 3)", "mt.pow(2)",
    "mt.neg().sigmoid()", "mt.isnan()", "mt + 1", "mt * mt", "mt / data", "mt - mt.cos()",
    "mt > 2", "torch.maximum(mt, mt.exp())", "mt.add_(1)", "mt.softmax(1)",
    "torch.where(mask, mt, data)", "mt.to(torch.float64)", "mt.detach()", "mt.clone()"])
def test_pointwise_operators_keep_the_mask(expression):
    theirs, ours = both(expression)
    assert ours == theirs


@pytest.mark.parametrize("expression", [
    "mt.sum()", "mt.sum(1)", "torch.sum(mt, 0, keepdim=True)", "mt.mean(1)", "mt.amax()",
    "mt.amin(0)", "mt.argmax()", "mt.argmin(1)", "mt.prod(1)", "mt.var(1)", "mt.std()",
    "(mt > 2).all()", "(mt > 0).all(1)", "mt.sum((0, 1))"])
def test_reductions_see_the_present_elements(expression):
    theirs, ours = both(expression)
    assert ours == theirs


@pytest.mark.parametrize("expression", [
    "mt.t()", "mt.transpose(0, 1)", "mt[:, 1:]", "mt[:, [0, 2]]", "mt.view(3, 2)",
    "mt.reshape(6)", "mt.unsqueeze(0)", "mt.expand(2, 2, 3)", "torch.cat([mt, mt], 1)",
    "torch.stack([mt, mt])", "mt.split(1)", "mt.contiguous()"])
def test_shape_operators_move_data_and_mask_together(expression):
    theirs, ours = both(expression)
    assert ours == theirs


def test_every_unary_and_binary_rule_as_torch():
    """Each name of torch's lists, as a function and as a method (in place too)."""
    from glasstorch.masked.maskedtensor import ops
    expressions = []
    for name in ops.UNARY + ops.BINARY:
        src = "mi" if name.startswith("bitwise") else "mt"
        arg = {"pow": "2", "clamp": "0.1, 0.2", "clip": "0.1, 0.2"}.get(name, "")
        arg = src if name in ops.BINARY else arg
        expressions += [f"torch.{name}({src}, {arg})" if arg else f"torch.{name}({src})",
                        f"{src}.{name}({arg})"]
    for name in ops.UNARY_INPLACE + ops.BINARY_INPLACE:
        src = "mi" if name.startswith("bitwise") else "mt"
        arg = {"pow_": "2", "clamp_": "0.1, 0.2", "clip_": "0.1, 0.2"}.get(name, "")
        expressions.append(f"{src}.clone().{name}({src if name[:-1] in ops.BINARY else arg})")
    data = [[0.5, -0.2, 0.3], [0.4, 0.25, -0.6]]
    for expression in expressions:
        texts = []
        for lib in (torch, gt):
            masked = lib.masked.masked_tensor
            env = {"torch": lib, "mt": masked(lib.tensor(data), lib.tensor(MASK)),
                   "mi": masked(lib.tensor([[1, 2, 3], [4, 5, 6]]), lib.tensor(MASK))}
            texts.append(repr(eval(expression, env)))
        assert texts[1] == texts[0], expression


@pytest.mark.parametrize("expression", [
    "bool(mt[0, 0])", "float(mt[0, 1])", "int(mt.sum())", "mt.sum() > 3", "mt.stride()",
    "mt.is_contiguous()", "mt.t().is_contiguous()", "list(mt)[1]", "mt.sum(1).tolist()",
    "mt.data_ptr() == data.data_ptr()", "copy.deepcopy(mt)", "copy.copy(mt)",
    "mt.detach().exp_() is not None and mt", "mt.t().add_(1) is not None and mt"])
def test_python_protocol_as_torch(expression):
    results = []
    for lib in (torch, gt):
        env = {"torch": lib, "data": lib.tensor(DATA), "copy": copy}
        env["mt"] = lib.masked.masked_tensor(env["data"], lib.tensor(MASK))
        try:
            results.append(repr(eval(expression, env)))
        except Exception as error:
            results.append(f"{type(error).__name__}: {error}")
    assert results[1] == results[0].replace("torch.masked.", "glasstorch.masked.")


@pytest.mark.parametrize("expression", [
    "torch.masked.sum(mt)", "torch.masked.sum(mt, 1, mask=~mask)", "torch.masked.amax(mt, 1)",
    "torch.masked.softmax(mt, 1)", "torch.masked.norm(mt, 2.0, 1)", "torch.masked.cumsum(mt, 1)",
    "torch.masked.argmax(mt, 1)", "torch.masked.logsumexp(mt, 1)", "torch.masked.median(mt, 1)",
    "torch.masked.normalize(mt, 2.0, 1)", "torch.masked.prod(mt, 1)"])
def test_masked_functions_read_a_masked_tensors_own_mask(expression):
    theirs, ours = both(expression)
    assert ours == theirs and ours.startswith("tensor(")


def test_accessors():
    mt = gt.masked.masked_tensor(gt.tensor(DATA), gt.tensor(MASK))
    assert gt.masked.is_masked_tensor(mt) and isinstance(mt, gt.Tensor)
    assert not gt.masked.is_masked_tensor(gt.tensor(DATA))
    assert mt.get_data().tolist() == DATA and mt.get_mask().tolist() == MASK
    assert mt.to_tensor(0).tolist() == [[1.0, 0.0, 3.0], [0.0, 5.0, -6.0]]
    assert (mt.shape, mt.dtype, mt.dim(), mt.is_sparse) == ((2, 3), gt.float32, 2, False)
    assert mt.sum().item() == 3.0


@pytest.mark.parametrize("expression", [
    "torch.masked.masked_tensor([1.], mask)", "torch.masked.masked_tensor(data, [True])",
    "torch.masked.MaskedTensor(data, mask.int())",
    "torch.masked.masked_tensor(data.to(torch.complex64), mask)",
    "torch.masked.masked_tensor(data.to(torch.uint8), mask)",
    "torch.masked.masked_tensor(data, mask[0])", "torch.masked.masked_tensor(data, mask.t())",
    "torch.masked.masked_tensor(data, mask) + torch.masked.masked_tensor(data, ~mask)",
    "torch.mm(mt, data.t())", "mt.relu()", "mt @ data", "mt.tolist()", "mt.numpy()",
    "mt.item()", "mt[0, 1].item()", "mt.abs_()", "torch.round(mt, decimals=1)",
    "torch.div(mt, mt, rounding_mode='floor')", "mt.add(mt, alpha=2)"])
def test_refuses_as_torch(expression):
    errors = []
    for lib in (torch, gt):
        env = {"torch": lib, "data": lib.tensor(DATA), "mask": lib.tensor(MASK)}
        env["mt"] = lib.masked.masked_tensor(env["data"], env["mask"], True)
        with pytest.raises(Exception) as error:
            eval(expression, env)
        errors.append(error.value)
    assert type(errors[1]) is type(errors[0])
    assert str(errors[1]) == str(errors[0]).replace("torch.masked.", "glasstorch.masked.")


def test_warns_as_torch():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        mt = gt.masked.masked_tensor(gt.tensor(DATA, requires_grad=True), gt.tensor(MASK))
        mt.sin()
        with pytest.raises(TypeError, match="Multiple dispatch failed for "
                                            "'torch._ops.aten.mm.default'"):
            gt.mm(mt, gt.ones(3, 3))
    messages = [str(w.message) for w in caught]
    assert messages[0].startswith("The PyTorch API of MaskedTensors is in prototype stage")
    assert messages[1].startswith("It is not recommended to create a MaskedTensor with a "
                                  "tensor that requires_grad")
    assert messages[2].startswith("The PyTorch API") and len(messages) == 4
    assert messages[3].startswith("mm is not implemented in __torch_dispatch__ for "
                                  "MaskedTensor.\nIf you would like")


@pytest.mark.parametrize("expression", [
    "mt.sum()", "(mt * mt).sum()", "mt.exp().amax(1).sum()", "mt.mean()",
    "(mt.sin() * 2 + mt).exp().mean()", "mt.softmax(1).mul(mt).sum()",
    "(mt / 3 + mt.t().t()).var()"])
def test_gradients_reach_the_present_elements(expression):
    grads = []
    for lib in (torch, gt):
        env = {"torch": lib, "mt": lib.masked.masked_tensor(lib.tensor(DATA),
                                                             lib.tensor(MASK), True)}
        eval(expression, env).backward()
        mt = env["mt"]
        assert lib.masked.is_masked_tensor(mt.grad) and mt.is_leaf
        grads.append(repr(mt.grad))
    assert grads[1] == grads[0]


def test_autograd_state_is_the_datas():
    mt = gt.masked.masked_tensor(gt.tensor(DATA), gt.tensor(MASK), requires_grad=True)
    result = mt.sin()
    assert mt.requires_grad and mt.grad_fn is None
    assert result.requires_grad and not result.is_leaf
    assert result.grad_fn.name() == "SinBackward0"
    result.sum().backward()
    mt.grad = None
    assert mt.grad is None and not mt.requires_grad_(False).requires_grad
    x = gt.tensor(DATA, requires_grad=True)
    gt.masked.as_masked_tensor(x, gt.tensor(MASK)).sum().backward()
    assert x.grad.tolist() == [[1.0, 0.0, 1.0], [0.0, 1.0, 1.0]]
