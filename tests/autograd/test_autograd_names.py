"""The rest of torch.autograd's public names, torch.random's, torch.utils.hooks' and the
top-level anomaly switches: each against torch where torch is importable."""
import types
import warnings

import pytest

import glasstorch as gt


def _public(module):
    return {n for n in dir(module) if not n.startswith("_")
            and not isinstance(getattr(module, n), types.ModuleType)}


# typing helpers torch's modules happen to import
_TYPING = {"Mapping", "Sequence", "cast", "overload", "TYPE_CHECKING"}


def test_every_public_name_of_torch_autograd_and_random_exists():
    torch = pytest.importorskip("torch")
    for module, ours in ((torch.autograd, gt.autograd), (torch.random, gt.random)):
        assert sorted(_public(module) - _TYPING - {"torch", "warnings"}
                      - set(dir(ours))) == []
    for name in torch.autograd.__all__:
        assert hasattr(gt.autograd, name), name
    for name in ("GradientEdge", "get_gradient_edge", "increment_version",
                 "disable_saved_tensors_hooks", "saved_tensors_hooks", "save_on_cpu", "Node"):
        assert hasattr(gt.autograd.graph, name), name
    for name in torch.utils.hooks.__all__:
        assert hasattr(gt.utils.hooks, name), name


def test_variable_is_a_detached_alias_and_every_tensor_is_one():
    torch = pytest.importorskip("torch")
    for lib in (gt, torch):
        x = lib.ones(2, requires_grad=True)
        v = lib.autograd.Variable(x * 2)
        assert isinstance(x, lib.autograd.Variable) and not isinstance(3, lib.autograd.Variable)
        assert v.grad_fn is None and not v.requires_grad
        assert lib.autograd.Variable(lib.ones(1), requires_grad=True).is_leaf
        with pytest.raises(TypeError, match="Variable data has to be a tensor, but got int"):
            lib.autograd.Variable(3)
        with pytest.raises(RuntimeError, match=r"torch.autograd.variable\(...\) is deprecated"):
            lib.autograd.variable(x)
        with pytest.warns(UserWarning, match="volatile was removed"):
            lib.autograd.Variable(x, volatile=True)


def test_engine_settings_switch_and_restore_as_torch():
    torch = pytest.importorskip("torch")
    for lib in (gt, torch):
        setting = lib.autograd.set_multithreading_enabled(False)
        assert lib.autograd.is_multithreading_enabled() is False
        with setting:
            pass
        assert lib.autograd.is_multithreading_enabled() is True
        assert lib.autograd.is_view_replay_enabled() is False
        with lib.autograd.enforce_grad_layout_policy(False):
            pass


def test_gradient_edges_and_versions_as_torch():
    torch = pytest.importorskip("torch")
    for lib in (gt, torch):
        graph = lib.autograd.graph
        x = lib.ones(2, requires_grad=True)
        edge = graph.get_gradient_edge(x * 2)
        assert type(edge.node).__name__ == "MulBackward0" and edge.output_nr == 0
        assert type(graph.get_gradient_edge(x).node).__name__ == "AccumulateGrad"
        with pytest.raises(RuntimeError, match="not possible to get the gradient edge"):
            graph.get_gradient_edge(lib.ones(1))
        before = x._version
        graph.increment_version(x)
        graph.increment_version([x, x])
        assert x._version == before + 3
        with graph.disable_saved_tensors_hooks("no hooks here"):
            with pytest.raises(RuntimeError, match="^no hooks here$"):
                with graph.saved_tensors_hooks(lambda t: t, lambda t: t):
                    pass
        with graph.saved_tensors_hooks(lambda t: t, lambda t: t):
            pass


def test_torch_function_helpers_as_torch():
    torch = pytest.importorskip("torch")

    class Wrapper:
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            return ("handled", func.__name__)

    class Declines:
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            return NotImplemented

    def f(value):
        return value
    for lib in (gt, torch):
        autograd = lib.autograd
        assert not autograd.has_torch_function((lib.ones(1),))
        assert autograd.has_torch_function((lib.ones(1), Wrapper()))
        assert autograd.is_tensor_like(lib.ones(1)) and autograd.is_tensor_like(Wrapper())
        assert not autograd.is_tensor_like(3)
        assert autograd.handle_torch_function(f, (Wrapper(),), Wrapper()) == ("handled", "f")
        with pytest.raises(TypeError, match="no implementation found for '.*f' on types "
                           "that implement __torch_function__"):
            autograd.handle_torch_function(f, (Declines(),), Declines())


def test_top_level_anomaly_switches_as_torch():
    torch = pytest.importorskip("torch")
    for lib in (gt, torch):
        try:
            lib.set_anomaly_enabled(True, False)
            assert lib.is_anomaly_enabled() and not lib.is_anomaly_check_nan_enabled()
        finally:
            lib.set_anomaly_enabled(False)
        assert not lib.is_anomaly_enabled() and lib.is_anomaly_check_nan_enabled()


def test_unserializable_hooks_are_not_warned_about():
    torch = pytest.importorskip("torch")
    for lib in (gt, torch):
        x = lib.ones(2, requires_grad=True)
        x.register_hook(lib.utils.hooks.unserializable_hook(lambda g: g))
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            lib.utils.hooks.warn_if_has_hooks(x)
        x.register_hook(lambda g: g)
        with pytest.warns(UserWarning, match="on tensor will not be serialized.  If this is "
                          "expected, you can decorate the function with "
                          "@torch.utils.hooks.unserializable_hook"):
            lib.utils.hooks.warn_if_has_hooks(x)
        y = (x * 2)
        y.register_hook(lambda g: g)
        with pytest.warns(UserWarning, match="will not be serialized"):
            lib.utils.hooks.warn_if_has_hooks(y)
        lib.utils.hooks.warn_if_has_hooks(lib.ones(1))


def test_thread_safe_generator_is_none_outside_thread_workers():
    torch = pytest.importorskip("torch")
    assert gt.random.thread_safe_generator() is None is torch.random.thread_safe_generator()


def test_anomaly_switch_turns_anomaly_detection_on():
    gt.set_anomaly_enabled(True)
    try:
        x = gt.ones(1, requires_grad=True)
        with pytest.raises(RuntimeError, match="returned nan values"):
            (x * float("nan")).sum().backward()
    finally:
        gt.set_anomaly_enabled(False)


def test_profiler_names_of_torch_autograd():
    assert gt.autograd.ProfilerActivity is gt.profiler.ProfilerActivity
    assert gt.autograd.kineto_available() is True
    assert issubclass(gt.autograd.NestedIOFunction, gt.autograd.Function)


def _multi_hook_log(lib):
    graph, log = lib.autograd.graph, []
    a = lib.rand(2, 3, requires_grad=True)
    b = lib.rand(2, 3, requires_grad=True)
    c, d = a * b, a * b
    graph.register_multi_grad_hook((a, b, c, d), lambda gs: log.append(
        [g is not None for g in gs]))
    c.sum().backward(retain_graph=True)
    c.sum().backward(inputs=(a,), retain_graph=True)
    handle = graph.register_multi_grad_hook((a, b), lambda g: log.append(list(g.shape)),
                                            mode="any")
    (a * b).sum().backward()
    handle.remove()
    (a * b).sum().backward()
    return log


def test_multi_grad_hooks_fire_as_torch():
    torch = pytest.importorskip("torch")
    assert _multi_hook_log(gt) == _multi_hook_log(torch)
    with pytest.raises(ValueError, match=r"Expects mode to be one of \('all', 'any'\) but "
                       "got x"):
        gt.autograd.graph.register_multi_grad_hook((gt.ones(1),), print, mode="x")


def test_compile_only_graph_switches_refuse_in_eager_mode_as_torch():
    torch = pytest.importorskip("torch")
    for lib in (gt, torch):
        graph = lib.autograd.graph
        with pytest.raises(TypeError, match="expects a float, got bool"):
            graph.region_activation_memory_budget(True)
        with pytest.raises(ValueError, match=r"must be in \[0, 1\], got 2.0"):
            graph.region_activation_memory_budget(2.0)
        with pytest.raises(RuntimeError, match="can only be used inside a torch.compile"):
            graph.region_activation_memory_budget(0.5)
        graph.set_warn_on_accumulate_grad_stream_mismatch(True)
        graph.set_override_stale_capture_stream(False)


def _mutation_log(lib):
    graph, log = lib.autograd.graph, []
    with graph.allow_mutation_on_saved_tensors():
        a = lib.ones(2, 3, requires_grad=True)
        b = a.clone()
        out = (b ** 2).sum()
        b.sin_()                                 # b was saved by pow: backward uses a copy
        out.backward()
        log.append(a.grad.tolist())
        v = a.clone()
        w = v[0]
        out = (w * w).sum()
        v.mul_(3)                                # a write through the base of a saved view
        out.backward()
        log.append(a.grad.tolist())
        with pytest.raises(RuntimeError, match="contexts cannot be nested"):
            with graph.allow_mutation_on_saved_tensors():
                pass
    with graph.allow_mutation_on_saved_tensors():
        c = lib.ones(2, requires_grad=True).clone()
        out = (c * c).sum()
    with pytest.raises(AssertionError, match="Trying to backward outside of the "
                       "'allow_mutation_on_saved_tensors' context"):
        out.backward()
    return log


def test_mutation_on_saved_tensors_is_allowed_as_torch():
    torch = pytest.importorskip("torch")
    assert _mutation_log(gt) == _mutation_log(torch)
    b = gt.ones(2, requires_grad=True).clone()
    out = (b ** 2).sum()
    b.sin_()
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        out.backward()                           # outside the block: refused as before


def test_every_public_name_of_torch_autograd_graph_exists():
    torch = pytest.importorskip("torch")
    for name in torch.autograd.graph.__all__:
        assert hasattr(gt.autograd.graph, name), name
