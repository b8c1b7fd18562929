"""Devices a CPU-only torch lacks: tensors' predicates and moves, factories and copies to
them, streams and events, torch.mps / torch.cpu / torch.accelerator and get_device_module,
each answering or refusing as torch's CPU wheel does."""
import pytest

import glasstorch as gt
from tests.devices.outcome import outcome

torch = pytest.importorskip("torch")

_DEVICES = ["cuda", "cuda:1", "xpu", "mtia", "hpu", "privateuseone", "mps", "ipu", "xla",
            "vulkan", "maia", "hip", "ve", "fpga"]
_MOVES = ["torch.ones(2).to('{d}')", "torch.ones(2).to(torch.device('{d}'))",
          "torch.ones(2).to(device='{d}', dtype=torch.float64)", "torch.tensor([1.], device='{d}')",
          "torch.as_tensor([1.], device='{d}')", "torch.zeros(2).new_tensor([1.], device='{d}')"]
_FACTORIES = ["torch.ones(2, device='{d}')", "torch.randn(2, device='{d}')",
              "torch.arange(3, device='{d}')", "torch.zeros(2).new_ones(2, device='{d}')",
              "torch.empty_like(torch.ones(2), device='{d}')"]
_LAZY_INIT = {"cuda", "cuda:1", "xpu", "mtia", "hpu", "privateuseone"}


@pytest.mark.parametrize("device", _DEVICES)
@pytest.mark.parametrize("template", _MOVES)
def test_copies_to_missing_devices_refuse_as_torch(template, device):
    call = template.format(d=device)
    assert outcome(call, gt) == outcome(call, torch)


@pytest.mark.parametrize("device", _DEVICES)
@pytest.mark.parametrize("template", _FACTORIES)
def test_factories_on_missing_devices_refuse_as_torch(template, device):
    call = template.format(d=device)
    mine, theirs = outcome(call, gt), outcome(call, torch)
    if device in _LAZY_INIT:
        assert mine == theirs
    else:
        # torch's composite factories reach its dispatcher as `empty.memory_format`; here
        # the factory is the operator dispatched, and the sentence names it
        assert mine[0] == theirs[0] == "NotImplementedError"
        assert mine[1].split("'")[2:5] == theirs[1].split("'")[2:5]


TENSOR_CALLS = [
    "torch.ones(2).is_cuda", "torch.ones(2).is_xpu", "torch.ones(2).is_mps",
    "torch.ones(2).is_ipu", "torch.ones(2).is_mtia", "torch.ones(2).is_maia",
    "torch.ones(2).is_xla", "torch.ones(2).is_vulkan", "torch.ones(2).is_cpu",
    "torch.ones(2, device='meta').is_cuda", "torch.ones(2).cuda()", "torch.ones(2).cuda(0)",
    "torch.ones(2).cuda(device='cpu')", "torch.ones(2).cuda(non_blocking=True)",
    "torch.ones(2).cuda(1, True)", "torch.ones(2).cuda('x')", "torch.ones(2).xpu()",
    "torch.ones(2).xpu(0)", "torch.ones(2).mtia()", "torch.ones(2).ipu()",
    "torch.ones(2).pin_memory()", "torch.ones(2).pin_memory('cpu')",
    "torch.ones(2).pin_memory('cuda')", "torch.ones(2, device='meta').pin_memory()",
    "torch.ones(2, dtype=torch.int64, device='meta').pin_memory()",
    "torch.ones(2).is_pinned()", "torch.ones(2).is_pinned('cuda')",
    "torch.ones(2, device='meta').is_pinned()", "torch.ones(2).record_stream(torch.Stream())",
    "torch.ones(2).record_stream(1)", "torch.ones(2).to('cuda', torch.float64)",
    "torch.ones(2).get_device()", "torch.ones(2).cpu().is_cuda",
    "torch.ones(2).type(torch.cuda.FloatTensor)", "torch.ones(2).type('torch.cuda.FloatTensor')",
    "torch.ones(2).type('torch.cuda.Foo')", "torch.ones(2).type(torch.cuda.sparse.FloatTensor)",
]


@pytest.mark.parametrize("call", TENSOR_CALLS)
def test_tensor_device_methods_as_torch(call):
    assert outcome(call, gt) == outcome(call, torch)


def test_device_argument_of_pin_memory_is_deprecated():
    with pytest.warns(DeprecationWarning, match="argument 'device' of Tensor.is_pinned"):
        assert gt.ones(2).is_pinned("cuda") is False


MODULE_CALLS = [
    # streams and events
    "torch.Stream()", "torch.Stream().query()", "torch.Stream().synchronize()",
    "torch.Stream().record_event()", "torch.Stream().wait_stream(torch.Stream())",
    "torch.Stream().device", "torch.Stream().stream_id", "torch.Stream().device_type",
    "torch.Stream().device_index", "torch.Stream() == torch.Stream()", "repr(torch.Stream())",
    "torch.Stream(priority=1).query()", "torch.Stream(device=0)", "torch.Stream(device='cuda')",
    "torch.Stream().is_capturing()", "repr(torch.Event())", "repr(torch.Event(enable_timing=True))",
    "torch.Event(device='cuda')", "torch.Event().record()", "torch.Event().query()",
    "torch.Event().synchronize()", "torch.Event().wait()", "torch.Event().device",
    "torch.Event().event_id", "torch.Event().elapsed_time(torch.Event())",
    "issubclass(torch.OutOfMemoryError, RuntimeError)", "torch.OutOfMemoryError.__module__",
    "issubclass(torch.AcceleratorError, RuntimeError)", "torch.AcceleratorError.__name__",
    "torch.has_lapack", "torch.has_mkl", "torch.has_openmp", "torch.has_spectral",
    # get_device_module
    "torch.get_device_module().__name__.split('.')[-1]",
    "torch.get_device_module('cuda').__name__.split('.')[-1]",
    "torch.get_device_module(torch.device('cuda')).is_available()",
    "torch.get_device_module('mps').is_available()", "torch.get_device_module('meta')",
    "torch.get_device_module('xla')", "torch.get_device_module('foo')",
    # torch.cpu
    "torch.cpu.is_available()", "torch.cpu.is_initialized()", "torch.cpu.synchronize()",
    "torch.cpu.current_device()", "torch.cpu.device_count()", "torch.cpu.set_device('cpu')",
    "torch.cpu.current_stream().query()", "torch.cpu.stream(torch.cpu.Stream()).__enter__()",
    # torch.mps
    "torch.mps.is_available()", "torch.mps.device_count()", "torch.mps.manual_seed(1)",
    "torch.mps.seed()", "torch.mps.get_rng_state()", "torch.mps.synchronize()",
    "torch.mps.empty_cache()", "torch.mps.set_per_process_memory_fraction(0.5)",
    "torch.mps.set_per_process_memory_fraction(3)", "torch.mps.current_allocated_memory()",
    "torch.mps.driver_allocated_memory()", "torch.mps.recommended_max_memory()",
    "torch.mps.compile_shader('x')", "torch.mps.load_metallib('x')",
    "torch.mps.profiler.start()",
    # torch.accelerator
    "torch.accelerator.is_available()", "torch.accelerator.device_count()",
    "torch.accelerator.current_accelerator()", "torch.accelerator.current_accelerator(True)",
    "torch.accelerator.current_device_index()", "torch.accelerator.set_device_index(0)",
    "torch.accelerator.set_device_index(-1)", "torch.accelerator.synchronize()",
    "torch.accelerator.current_stream()", "torch.accelerator.set_stream(torch.Stream())",
    "torch.accelerator.memory_allocated()", "torch.accelerator.empty_cache()",
    "torch.accelerator.device_index(None).__enter__()",
    "torch.accelerator.device_index(0).__enter__()", "torch.accelerator.Graph()",
]


@pytest.mark.parametrize("call", MODULE_CALLS)
def test_device_modules_as_torch(call):
    assert outcome(call, gt) == outcome(call, torch)


@pytest.mark.parametrize("module", ["mps", "cpu", "accelerator", "amp"])
def test_public_names_of_device_modules_exist(module):
    names = getattr(torch, module).__all__
    assert [n for n in names if not hasattr(getattr(gt, module), n)] == []


def test_cpu_capabilities_agree_with_torch_where_both_name_a_feature():
    mine, theirs = gt.cpu.get_capabilities(), torch.cpu.get_capabilities()
    assert type(mine).__name__ == "mappingproxy"
    shared = set(mine) & set(theirs) & {"avx", "avx2", "fma3", "sse4_2", "avx512f"}
    assert shared and all(mine[k] == theirs[k] for k in shared)


def test_cpu_stream_context_changes_the_current_stream():
    stream = gt.cpu.Stream()
    with gt.cpu.stream(stream):
        assert gt.cpu.current_stream() is stream
    assert gt.cpu.current_stream() is not stream


@pytest.mark.parametrize("call", [f"torch.nn.Linear(2, 2).{move}({args})"
                                  for move in ("cuda", "xpu", "ipu", "mtia")
                                  for args in ("", "0")] + ["torch.nn.Module().cuda()",
                                                            "torch.nn.Module().xpu()"])
def test_module_moves_as_torch(call):
    assert outcome(call, gt) == outcome(call, torch)


def test_top_level_device_names_exist():
    names = ["Stream", "Event", "OutOfMemoryError", "AcceleratorError", "get_device_module",
             "has_lapack", "has_mkl", "has_openmp", "has_spectral", "cuda", "backends", "mps",
             "xpu", "mtia", "accelerator", "cpu", "amp"]
    assert [n for n in names if hasattr(torch, n) and not hasattr(gt, n)] == []
