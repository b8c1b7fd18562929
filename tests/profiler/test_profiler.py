"""torch.profiler and torch.autograd.profiler: what a profile records, its schedule and
the files it writes; differential against torch where torch is importable."""
import json
import os
import warnings

import pytest

import glasstorch as gt
from glasstorch.c10.dispatch_key import local_keys


def _model_run(lib):
    """A small model's forward and backward under a profile with shapes recorded."""
    lib.manual_seed(0)
    model = lib.nn.Sequential(lib.nn.Linear(4, 3), lib.nn.ReLU(), lib.nn.Linear(3, 1))
    x = lib.randn(2, 4)
    with lib.profiler.profile(activities=[lib.profiler.ProfilerActivity.CPU],
                              record_shapes=True) as prof:
        model(x).sum().backward()
    return prof


def _top_level(prof):
    return [(e.name, e.input_shapes) for e in prof.events() if e.cpu_parent is None]


def test_top_level_events_of_forward_and_backward_match_torch():
    torch = pytest.importorskip("torch")
    assert _top_level(_model_run(gt)) == _top_level(_model_run(torch))


def test_backward_node_regions_hold_the_node_and_its_operators():
    torch = pytest.importorskip("torch")

    def children(prof, name):
        return [[c.name for c in e.cpu_children] for e in prof.events() if e.name == name]
    for name in ("autograd::engine::evaluate_function: ReluBackward0", "ReluBackward0",
                 "autograd::engine::evaluate_function: TBackward0"):
        assert children(_model_run(gt), name) == children(_model_run(torch), name)


def _overloads(lib, capture):
    x = lib.ones(2, 3)
    config = lib.profiler._ExperimentalConfig(capture_overload_names=capture)
    with lib.profiler.profile(experimental_config=config) as prof:
        lib.add(x, x)
        x.sum(dim=0)
    events = prof.events()
    assert all(e.cpu_time_total >= e.self_cpu_time_total >= 0 for e in events)
    assert events[0].input_shapes == []           # record_shapes off
    return [(e.name, e.overload_name) for e in events if e.name in ("aten::add", "aten::sum")]


def test_operators_are_recorded_with_their_overloads_when_asked_as_torch():
    torch = pytest.importorskip("torch")
    for capture in (False, True):
        assert _overloads(gt, capture) == _overloads(torch, capture)
    assert _overloads(gt, True) == [("aten::add", "Tensor"), ("aten::sum", "dim_IntList")]


def test_no_observer_is_left_on_after_a_profile_even_when_it_raises():
    with pytest.raises(ValueError):
        with gt.profiler.profile():
            raise ValueError("inside")
    assert local_keys.plain and not local_keys.observed


def test_record_function_as_context_manager_and_decorator():
    @gt.profiler.record_function("decorated")
    def f(x):
        return x * 2

    with gt.profiler.profile() as prof:
        with gt.profiler.record_function("block") as region:
            f(gt.ones(2))
    assert isinstance(region, gt.profiler.record_function)
    names = {e.name: e for e in prof.events()}
    assert names["decorated"].cpu_parent is names["block"]
    assert [c.name for c in names["decorated"].cpu_children] == ["aten::mul"]
    assert gt.autograd.profiler.record_function is gt.profiler.record_function


def _schedules(lib):
    s = lib.profiler.schedule
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return [s(wait=1, warmup=1, active=2), s(wait=1, warmup=1, active=2, repeat=1),
                s(wait=2, warmup=0, active=1, skip_first=3),
                s(wait=2, warmup=1, active=1, skip_first=2, skip_first_wait=1)]


def test_schedule_matches_torch():
    torch = pytest.importorskip("torch")
    for ours, theirs in zip(_schedules(gt), _schedules(torch)):
        assert [ours(i).name for i in range(12)] == [theirs(i).name for i in range(12)]


def test_schedule_refuses_bad_arguments_and_warns_without_warmup():
    with pytest.raises(AssertionError, match=r"Invalid profiler schedule arguments. Got "
                       r"wait=1 \(need >= 0\), warmup=1 \(need >= 0\), active=0"):
        gt.profiler.schedule(wait=1, warmup=1, active=0)
    with pytest.warns(UserWarning, match="Profiler won't be using warmup"):
        gt.profiler.schedule(wait=1, warmup=0, active=1)


def _scheduled_run(lib):
    ready = []
    with lib.profiler.profile(schedule=lib.profiler.schedule(wait=1, warmup=1, active=2),
                              on_trace_ready=lambda p: ready.append(
                                  (p.step_num, sorted({e.name for e in p.events()})))) as prof:
        for _ in range(9):
            lib.ones(1).add(1)
            prof.step()
    return ready


def test_schedule_drives_recording_and_on_trace_ready_as_torch():
    torch = pytest.importorskip("torch")
    ours, theirs = _scheduled_run(gt), _scheduled_run(torch)
    assert [step for step, _ in ours] == [step for step, _ in theirs] == [4, 8]
    for (_, our_names), (_, their_names) in zip(ours, theirs):
        assert "ProfilerStep*" in our_names and "aten::add" in our_names
        assert set(our_names) >= {"ProfilerStep*", "aten::add"}


def test_tensorboard_trace_handler_writes_a_chrome_trace(tmp_path):
    with gt.profiler.profile(on_trace_ready=gt.profiler.tensorboard_trace_handler(
            str(tmp_path / "logs"), worker_name="w"), record_shapes=True):
        gt.ones(2).add(1)
    (name,) = os.listdir(tmp_path / "logs")
    assert name.startswith("w.") and name.endswith(".pt.trace.json")
    trace = json.loads((tmp_path / "logs" / name).read_text())
    (add,) = [e for e in trace["traceEvents"] if e["name"] == "aten::add"]
    assert add["ph"] == "X" and add["cat"] == "cpu_op" and add["dur"] >= 0
    assert add["args"]["Input Dims"] == [[2], [], []]


def test_export_chrome_trace_of_both_profilers(tmp_path):
    with gt.autograd.profiler.profile() as prof:
        gt.ones(2).neg()
    prof.export_chrome_trace(str(tmp_path / "a.json"))
    trace = json.loads((tmp_path / "a.json").read_text())["traceEvents"]
    assert [(e["name"], e["ph"]) for e in trace] == [("aten::ones", "X"), ("aten::neg", "X")]


def test_autograd_profile_refusals_as_torch():
    prof = gt.autograd.profiler.profile()
    with prof:
        with pytest.raises(RuntimeError, match="Profiler context manager is not reentrant"):
            prof.__enter__()
    with pytest.raises(AssertionError, match="Torch not compiled with CUDA enabled"):
        with gt.autograd.profiler.emit_nvtx():
            pass
    with gt.autograd.profiler.emit_nvtx(enabled=False), gt.autograd.profiler.emit_itt():
        gt.ones(1)
    with gt.autograd.profiler.profile(enabled=False) as off:
        gt.ones(1)
    assert off is None                               # as torch's enter returns


def test_public_names_of_the_profiler_modules_match_torch():
    torch = pytest.importorskip("torch")
    for name in torch.profiler.__all__:
        assert hasattr(gt.profiler, name), name
    assert {a.name: a.value for a in gt.profiler.ProfilerActivity} == {
        name: int(a) for name, a in torch.profiler.ProfilerActivity.__members__.items()}
    assert [(a.name, a.value) for a in gt.profiler.ProfilerAction] == [
        (a.name, a.value) for a in torch.profiler.ProfilerAction]
    assert gt.profiler.supported_activities() == {gt.profiler.ProfilerActivity.CPU}
    for name in ("ProfilerActivity", "ProfilerState", "DeviceType", "kineto_available",
                 "ProfilerConfig", "ProfilerEvent"):
        assert hasattr(gt.autograd, name), name


def test_acc_events_keeps_every_cycle():
    def run(acc_events):
        with gt.profiler.profile(schedule=gt.profiler.schedule(wait=0, warmup=1, active=1),
                                 acc_events=acc_events) as prof:
            for _ in range(4):
                gt.ones(1).neg()
                prof.step()
        return sum(e.name == "aten::neg" for e in prof.events())
    assert (run(False), run(True)) == (0, 2)


def test_device_activities_are_refused_as_on_torchs_cpu_wheel():
    torch = pytest.importorskip("torch")
    for lib in (gt, torch):
        with pytest.warns(UserWarning, match="CUDA is not available, disabling CUDA profiling"):
            with pytest.raises(AssertionError, match="No activities specified for the profiler"):
                with lib.profiler.profile(activities=[lib.profiler.ProfilerActivity.CUDA]):
                    pass
        with pytest.warns(FutureWarning, match="The attribute `use_cuda` will be deprecated"):
            with lib.autograd.profiler.profile(use_cuda=True) as prof:
                lib.ones(1).neg()
        assert "aten::neg" in [e.name for e in prof.function_events]
        with pytest.raises(AssertionError, match="Device-only events supported only with "
                           "Kineto"):
            lib.autograd.profiler.profile(use_cpu=False)


def test_collection_pauses_and_resumes_as_torch():
    torch = pytest.importorskip("torch")
    names = []
    for lib in (gt, torch):
        cpu = [lib.profiler.ProfilerActivity.CPU]
        with warnings.catch_warnings(), lib.profiler.profile() as prof:
            warnings.simplefilter("ignore")
            prof.toggle_collection_dynamic(False, cpu)
            lib.ones(2).neg()
            prof.toggle_collection_dynamic(True, cpu)
            lib.ones(3).exp()
        names.append({e.name for e in prof.events()})
    assert "aten::exp" in names[0] and "aten::neg" not in names[0]
    assert names[1] >= names[0]


def test_trace_ids_stacks_and_memory_timeline(tmp_path):
    with gt.profiler.profile(custom_trace_id_callback=lambda: "run-1") as prof:
        gt.ones(1)
    prof.add_metadata("note", "hello")
    assert prof.get_trace_id() == "run-1"
    prof.export_chrome_trace(str(tmp_path / "t.json"))
    trace = json.loads((tmp_path / "t.json").read_text())
    assert (trace["trace_id"], trace["note"]) == ("run-1", "hello")
    with pytest.raises(AssertionError, match=r"export_stacks\(\) requires with_stack=True"):
        prof.export_stacks("unused.txt")
    with pytest.raises(ValueError, match="record_shapes=True, profile_memory=True, "
                       "with_stack=True required for memory profiling."):
        prof.export_memory_timeline("unused.html")
    with gt.profiler.profile() as other:
        pass
    assert len(other.get_trace_id()) == 32


def test_tensorboard_trace_handler_gzips_when_asked(tmp_path):
    import gzip
    with gt.profiler.profile(on_trace_ready=gt.profiler.tensorboard_trace_handler(
            str(tmp_path), worker_name="w", use_gzip=True)):
        gt.ones(2).neg()
    (name,) = os.listdir(tmp_path)
    assert name.endswith(".pt.trace.json.gz")
    with gzip.open(tmp_path / name, "rt") as f:
        assert "aten::neg" in [e["name"] for e in json.load(f)["traceEvents"]]


def test_every_name_of_torch_profiler_exists_and_step_tracker_counts_as_torch():
    torch = pytest.importorskip("torch")
    missing = [n for n in dir(torch.profiler) if not n.startswith("_")
               and n not in ("Any", "Optimizer", "TypeVarTuple", "Unpack", "os")
               and not hasattr(gt.profiler, n)]
    assert missing == []
    assert [(s.name, s.value) for s in gt.profiler.RecordScope] == [
        (name, int(s)) for name, s in torch.profiler.RecordScope.__members__.items()]
    deltas = []
    for tracker in (gt.profiler.KinetoStepTracker, torch.profiler.KinetoStepTracker):
        start = tracker.current_step()
        tracker.init_step_count("ProfilerStep")
        tracker.init_step_count("Optimizer")
        tracker.increment_step("ProfilerStep")
        tracker.increment_step("Optimizer")          # the same step, counted once
        tracker.increment_step("Late")               # joins at the current step
        deltas.append(tracker.current_step() - start)
        assert tracker.erase_step_count("Late") and not tracker.erase_step_count("Late")
    assert deltas[0] == deltas[1] == 2
    assert gt.profiler.is_fbcode() is False
    calls = []
    handle = gt.profiler.register_optimizer_step_post_hook(lambda *a: calls.append(1))
    param = gt.nn.Parameter(gt.ones(1))
    param.grad = gt.ones(1)
    gt.optim.SGD([param], lr=0.1).step()
    handle.remove()
    assert calls == [1]


def _kinds(lib):
    x = lib.ones(1, requires_grad=True)
    with lib.profiler.profile() as prof:
        with lib.profiler.record_function("block"):
            (x * 2).sum().backward()
    return {e.name: (e.is_user_annotation, e.scope) for e in prof.events()
            if e.name in ("block", "MulBackward0", "aten::mul",
                          "autograd::engine::evaluate_function: MulBackward0")}


def test_regions_carry_torchs_scopes_and_annotation_flag(tmp_path):
    torch = pytest.importorskip("torch")
    assert _kinds(gt) == _kinds(torch)
    with gt.profiler.profile() as prof:
        with gt.profiler.record_function("block"):
            gt.ones(1)
    prof.export_chrome_trace(str(tmp_path / "t.json"))
    cats = {e["name"]: e["cat"] for e in json.loads((tmp_path / "t.json").read_text())
            ["traceEvents"]}
    assert cats == {"block": "user_annotation", "aten::ones": "cpu_op"}


def test_events_are_numbered_by_thread_as_torch():
    torch = pytest.importorskip("torch")
    threads = []
    for lib in (gt, torch):
        with lib.profiler.profile() as prof:
            lib.ones(1)
        threads.append({e.thread for e in prof.events()})
    assert threads[0] == threads[1] == {1}
