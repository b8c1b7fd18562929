"""torch.compile, torch.compiler and torch._dynamo against torch: the objects returned,
their attribute forwarding and state_dict keys, eager results and gradients, and each
argument refused with torch's exception type and message."""
import pickle

import pytest

import glasstorch as gt


def _error(call):
    try:
        call()
    except Exception as error:          # noqa: BLE001 (the test compares any error)
        return type(error).__name__, str(error)
    return None


BAD_ARGUMENTS = [
    dict(backend="nope"),
    dict(mode="fast"),
    dict(mode=3),
    dict(mode="default", options={"max_autotune": True}),
    dict(backend="eager", mode="default", options={}),
    dict(dynamic="x"),
    dict(backend="eager", dynamic=1),
    dict(options={"max_autotune": "x"}),
    dict(options={"triton.cudagraphs": "x"}),
    dict(options="abc"),
    dict(options={"nonexist": 1}),
    dict(options={"cpp.threads": "x"}),
    dict(options={"max-autotune": 1}),
    dict(backend="nope", disable=True),
    dict(backend="nope", dynamic="x"),
]
GOOD_ARGUMENTS = [
    dict(), dict(backend="eager"), dict(backend="aot_eager"), dict(mode="reduce-overhead"),
    dict(mode="max-autotune"), dict(backend="eager", mode="fast"), dict(fullgraph=True),
    dict(dynamic=True), dict(dynamic=False), dict(options={"max_autotune": True}),
    dict(backend="eager", options={"anything": 1}), dict(backend=lambda gm, inputs: gm),
    dict(dynamic="x", disable=True),
    dict(options={"max-autotune": True}), dict(options={"cpp.threads": True}),
    dict(options={"guard_filter_fn": None, "use_aoti": False}),
    dict(options={"aot_inductor.output_path": "x", "epilogue_fusion": False}),
]


@pytest.mark.parametrize("kwargs", BAD_ARGUMENTS, ids=repr)
def test_refusals_match_torch(kwargs):
    torch = pytest.importorskip("torch")
    expected = _error(lambda: torch.compile(torch.nn.Linear(2, 2), **kwargs))
    assert expected is not None
    assert _error(lambda: gt.compile(gt.nn.Linear(2, 2), **kwargs)) == expected


@pytest.mark.parametrize("kwargs", GOOD_ARGUMENTS, ids=repr)
def test_accepted_arguments_match_torch(kwargs):
    torch = pytest.importorskip("torch")
    assert _error(lambda: torch.compile(torch.nn.Linear(2, 2), **kwargs)) is None
    compiled = gt.compile(gt.nn.Linear(2, 2), **kwargs)
    assert compiled(gt.ones(1, 2)).shape == (1, 2)


@pytest.mark.parametrize("model", [3, "abc"])
def test_non_callable_refused_as_torch(model):
    torch = pytest.importorskip("torch")
    for disable in (False, True):
        expected = _error(lambda: torch.compile(model, disable=disable))
        assert _error(lambda: gt.compile(model, disable=disable)) == expected
    assert _error(lambda: gt.compile()(None)) == _error(lambda: torch.compile()(None))


def test_module_form_matches_torch():
    torch = pytest.importorskip("torch")
    ours, theirs = gt.nn.Linear(2, 3), torch.nn.Linear(2, 3)
    compiled_ours, compiled_theirs = gt.compile(ours), torch.compile(theirs)
    assert type(compiled_ours).__name__ == type(compiled_theirs).__name__ == "OptimizedModule"
    assert compiled_ours._orig_mod is ours
    assert list(compiled_ours.state_dict()) == list(compiled_theirs.state_dict())
    assert [n for n, _ in compiled_ours.named_parameters()] == \
        [n for n, _ in compiled_theirs.named_parameters()]
    assert repr(compiled_ours) == repr(compiled_theirs)
    assert compiled_ours.in_features == 2 and compiled_ours.weight is ours.weight


def test_attribute_and_training_forwarding():
    model = gt.nn.Linear(2, 3)
    compiled = gt.compile(model)
    compiled.tag = "set through the wrapper"
    assert model.tag == "set through the wrapper" and "tag" not in compiled.__dict__
    model.eval()
    assert compiled.training is False
    compiled.train()
    assert model.training is True
    with pytest.raises(AttributeError, match="'Linear' object has no attribute 'missing'"):
        compiled.missing
    del compiled.tag
    assert not hasattr(model, "tag")


def test_state_dict_loads_with_prefix_and_refuses_without():
    torch = pytest.importorskip("torch")
    compiled = gt.compile(gt.nn.Linear(2, 3))
    compiled.load_state_dict({"_orig_mod.weight": gt.zeros(3, 2), "_orig_mod.bias": gt.zeros(3)})
    assert compiled._orig_mod.weight.sum().item() == 0
    plain = {"weight": gt.zeros(3, 2), "bias": gt.zeros(3)}
    theirs = torch.compile(torch.nn.Linear(2, 3))
    expected = _error(lambda: theirs.load_state_dict({k: torch.zeros(v.shape) for k, v in plain.items()}))
    assert _error(lambda: compiled.load_state_dict(plain)) == expected


def test_runs_eagerly_with_the_same_results_and_gradients():
    model = gt.nn.Sequential(gt.nn.Linear(3, 4), gt.nn.Tanh(), gt.nn.Linear(4, 1))
    compiled = gt.compile(model, backend="eager")
    x = gt.randn(5, 3)
    compiled(x).sum().backward()
    compiled_grads = [p.grad.clone() for p in model.parameters()]
    model.zero_grad()
    model(x).sum().backward()
    assert all(gt.equal(a, p.grad) for a, p in zip(compiled_grads, model.parameters()))


def test_function_and_decorator_forms():
    def double(x):
        """Twice x."""
        return 2 * x
    compiled = gt.compile(double)
    assert compiled.__name__ == "double" and compiled.__doc__ == "Twice x."
    assert compiled._torchdynamo_orig_callable is double
    assert gt.equal(compiled(gt.ones(2)), gt.full((2,), 2.0))

    @gt.compile(backend="eager", fullgraph=True)
    def plus_one(x):
        return x + 1
    assert gt.equal(plus_one(gt.zeros(2)), gt.ones(2))
    assert gt.compile(double, disable=True) is double


def test_pickles_with_its_module():
    compiled = pickle.loads(pickle.dumps(gt.compile(gt.nn.Linear(2, 3))))
    assert type(compiled).__name__ == "OptimizedModule"
    assert list(compiled.state_dict()) == ["_orig_mod.weight", "_orig_mod.bias"]


def test_dynamo_and_compiler_names():
    torch = pytest.importorskip("torch")
    import torch._dynamo
    assert gt._dynamo.list_backends() == torch._dynamo.list_backends()
    for tags in [None, ("debug",), ("experimental",)]:
        assert gt._dynamo.list_backends(exclude_tags=tags) == \
            torch._dynamo.list_backends(exclude_tags=tags)
    for name in ("suppress_errors", "cache_size_limit", "recompile_limit", "verbose",
                 "capture_scalar_outputs", "optimize_ddp"):
        assert getattr(gt._dynamo.config, name) == getattr(torch._dynamo.config, name)
    missing = set(torch.compiler.__all__) - set(dir(gt.compiler))
    assert not missing
    assert gt.compiler.is_compiling() is False and gt.compiler.get_default_backend() == "inductor"
    assert gt._dynamo.reset() is None and gt.compiler.reset() is None


def test_dynamo_config_settable_and_strict():
    torch = pytest.importorskip("torch")
    import torch._dynamo
    config = gt._dynamo.config
    before = config.suppress_errors
    config.suppress_errors = True
    try:
        assert config.suppress_errors is True
    finally:
        config.suppress_errors = before
    for action in (lambda c: c.nonexist, lambda c: setattr(c, "nonexist", 3)):
        assert _error(lambda: action(config)) == _error(lambda: action(torch._dynamo.config))


def test_markers_leave_the_program_unchanged():
    x = gt.ones(3)
    gt._dynamo.mark_dynamic(x, 0)
    gt._dynamo.mark_static(x, 0)
    gt._dynamo.graph_break()

    @gt._dynamo.disable
    def f(y):
        return y + 1

    @gt.compiler.allow_in_graph
    def g(y):
        return y * 2
    assert gt.equal(f(x), gt.full((3,), 2.0)) and gt.equal(g(x), gt.full((3,), 2.0))
    with gt.compiler.set_stance("force_eager"):
        assert gt.equal(gt.compile(f)(x), gt.full((3,), 2.0))


def test_module_compile_in_place_as_torch():
    torch = pytest.importorskip("torch")
    ours, theirs = gt.nn.Linear(2, 2), torch.nn.Linear(2, 2)
    assert ours.compile() is None and theirs.compile() is None
    assert ours._compiled_call_impl is not None and theirs._compiled_call_impl is not None
    assert list(ours.state_dict()) == list(theirs.state_dict()) == ["weight", "bias"]
    assert ours(gt.ones(2)).shape == (2,)
    assert _error(lambda: gt.nn.Linear(2, 2).compile(mode="bad")) == \
        _error(lambda: torch.nn.Linear(2, 2).compile(mode="bad"))
    compiled = gt.nn.Linear(2, 2)
    compiled.compile()
    assert "_compiled_call_impl" not in pickle.loads(pickle.dumps(compiled)).__dict__


def test_inductor_options_file_is_torchs():
    pytest.importorskip("torch")
    import torch._inductor.config as config
    from glasstorch._dynamo.backends import inductor_options
    assert list(inductor_options()) == list(config.get_config_copy()), \
        "stale: run tools/inductor_options.py"
