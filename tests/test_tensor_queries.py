"""Tensor predicates, type names and the query methods of `_tensor_queries.py`, against torch."""
import warnings

import pytest

import glasstorch as gt

torch = pytest.importorskip("torch")


def _outcome(call, lib):
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            value = call(lib)
        return "ok", value, [str(w.message).split(" (Triggered")[0] for w in caught]
    except Exception as error:   # noqa: BLE001 - the error is the outcome
        return type(error).__name__, str(error)


def _same(call):
    assert _outcome(call, gt) == _outcome(call, torch)


VALUES = [[1.5], [0.0], [float("nan")], [], [1, 2], [True], [0j + 1j]]


@pytest.mark.parametrize("values", VALUES)
@pytest.mark.parametrize("name", ["is_floating_point", "is_complex", "is_signed",
                                  "is_inference", "is_nonzero", "get_device"])
def test_predicates_as_torch(name, values):
    _same(lambda lib: getattr(lib, name)(lib.tensor(values)))
    _same(lambda lib: getattr(lib.tensor(values), name)())


@pytest.mark.parametrize("name", ["is_floating_point", "is_complex", "is_signed",
                                  "is_inference", "is_nonzero", "get_device"])
def test_predicates_refuse_non_tensors(name):
    _same(lambda lib: getattr(lib, name)(3))


@pytest.mark.parametrize("a, b", [((2,), (2,)), ((2,), (2, 1)), ((), ())])
def test_is_same_size(a, b):
    _same(lambda lib: lib.is_same_size(lib.zeros(a), lib.zeros(b)))
    _same(lambda lib: lib.zeros(a).is_same_size(lib.zeros(b)))
    _same(lambda lib: lib.is_same_size(lib.zeros(a), 1))


def test_constants():
    for name in ("pi", "e", "inf", "newaxis"):
        assert getattr(gt, name) == getattr(torch, name)
    assert gt.nan != gt.nan


@pytest.mark.parametrize("make", [lambda lib: lib.zeros(2), lambda lib: lib.zeros(2).long(),
                                  lambda lib: 3, lambda lib: lib.nn.Linear, lambda lib: "s"])
def test_typename(make):
    _same(lambda lib: lib.typename(make(lib)).replace("glasstorch", "torch"))


@pytest.mark.parametrize("kind", ["torch.DoubleTensor", "torch.LongTensor", "torch.Foo",
                                  "torch.cuda.FloatTensor", 3, "DoubleTensor", "LongTensor"])
def test_set_default_tensor_type(kind):
    def call(lib):
        try:
            lib.set_default_tensor_type(getattr(lib, kind) if kind in ("DoubleTensor",
                                                                     "LongTensor") else kind)
            return lib.get_default_dtype(), lib.zeros(1).dtype
        finally:
            lib.set_default_dtype(lib.float32)
    assert str(_outcome(call, gt)) == str(_outcome(call, torch))


def _layouts(lib):
    x = lib.arange(24.).reshape(2, 3, 4)
    return [x, x.permute(2, 0, 1), x.transpose(0, 1), lib.empty(2, 3, 4, 5).to(
        memory_format=lib.channels_last), lib.empty(2, 1, 3), x[:, :1], lib.empty(3, 3)[::2],
        lib.zeros(()), lib.empty(2, 2).expand(3, 2, 2), lib.empty(4, 1).t()]


@pytest.mark.parametrize("index", range(10))
@pytest.mark.parametrize("check", [False, True, "formats", "bad"])
def test_dim_order_as_torch(index, check):
    def call(lib):
        value = {"formats": [lib.contiguous_format, lib.channels_last], "bad": 3}.get(check, check)
        return _layouts(lib)[index].dim_order(ambiguity_check=value)
    _same(call)


def test_output_nr_as_torch():
    def call(lib):
        x = lib.arange(6.).reshape(2, 3).requires_grad_()
        m = x.max(0)
        return (x.output_nr, [t.output_nr for t in x.unbind()], m.values.output_nr,
                m.indices.output_nr, lib.zeros(2).output_nr)
    _same(call)


def test_const_data_ptr():
    x = gt.arange(6.)[2:]
    assert x.const_data_ptr() == x.data_ptr()


def test_as_subclass_shares_data_and_graph():
    class Sub(gt.Tensor):
        pass
    x = gt.arange(3.).requires_grad_()
    s = x.as_subclass(Sub)
    assert type(s) is Sub and s.data_ptr() == x.data_ptr()
    (s * 2).sum().backward()
    assert x.grad.tolist() == [2.0, 2.0, 2.0]


def test_as_subclass_refuses_non_tensor_classes():
    _same(lambda lib: lib.zeros(2).as_subclass(int))
