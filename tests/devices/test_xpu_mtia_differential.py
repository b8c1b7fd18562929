"""torch.xpu and torch.mtia as torch's CPU-only wheel has them."""
import pytest

import glasstorch as gt
from tests.devices.outcome import outcome

torch = pytest.importorskip("torch")

XPU_NO_ARGS = ["current_device", "current_stream", "device_count", "empty_cache", "get_arch_list",
               "get_device_capability", "get_device_name", "get_device_properties",
               "get_gencode_flags", "get_per_process_memory_fraction", "get_rng_state",
               "get_rng_state_all", "init", "initial_seed", "is_available", "is_bf16_supported",
               "is_current_stream_capturing", "is_initialized", "is_tf32_supported",
               "max_memory_allocated", "max_memory_reserved", "mem_get_info",
               "memory_allocated", "memory_reserved", "memory_snapshot", "memory_stats",
               "memory_stats_as_nested_dict", "reset_accumulated_memory_stats",
               "reset_peak_memory_stats", "seed", "seed_all", "synchronize", "graph_pool_handle",
               "clock_rate", "device_memory_used", "memory_usage", "power_draw", "temperature",
               "utilization", "Stream", "Event", "XPUGraph", "MemPool"]
XPU_CALLS = [f"torch.xpu.{name}()" for name in XPU_NO_ARGS] + [
    "torch.xpu.set_device(0)", "torch.xpu.set_device(-1)", "torch.xpu.manual_seed(1)",
    "torch.xpu.manual_seed_all(1)", "torch.xpu.set_per_process_memory_fraction(0.5)",
    "torch.xpu.set_rng_state(torch.zeros(2, dtype=torch.uint8))", "torch.xpu.set_rng_state_all([])",
    "torch.xpu.set_stream(None)", "torch.xpu.set_stream(torch.Stream())",
    "torch.xpu.stream(None).__enter__()", "torch.xpu.graph(None)",
    "torch.xpu.device(0).__enter__()", "torch.xpu.device_of(torch.ones(1)).__enter__()",
    "torch.xpu.can_device_access_peer(0, 1)", "torch.xpu.change_current_allocator(None)",
    "torch.xpu.get_stream_from_external(0)", "torch.xpu.use_mem_pool(None).__enter__()",
    "torch.xpu.make_graphed_callables(lambda x: x, (torch.ones(1),))",
    "torch.xpu.default_generators",
]
MTIA_NO_ARGS = ["init", "is_available", "is_initialized", "synchronize", "device_count",
                "current_device", "current_stream", "default_stream", "memory_stats",
                "max_memory_allocated", "memory_allocated", "reset_peak_memory_stats",
                "get_device_capability", "get_device_properties", "record_memory_history",
                "snapshot", "empty_cache", "get_rng_state", "get_rng_state_all", "seed",
                "seed_all", "initial_seed", "is_bf16_supported", "MTIAGraph",
                "graph_pool_handle"]
MTIA_CALLS = [f"torch.mtia.{name}()" for name in MTIA_NO_ARGS] + [
    "torch.mtia.set_device(0)", "torch.mtia.set_device(-1)", "torch.mtia.manual_seed(1)",
    "torch.mtia.manual_seed_all(1)", "torch.mtia.set_rng_state(torch.zeros(2, dtype=torch.uint8))",
    "torch.mtia.set_rng_state_all([])", "torch.mtia.set_stream(None)",
    "torch.mtia.set_stream(torch.Stream())", "torch.mtia.stream(None).__enter__()",
    "torch.mtia.device(0).__enter__()", "torch.mtia.device(-1).__enter__()",
    "torch.mtia.device(None).__enter__()", "torch.mtia.graph(None)", "repr(torch.mtia.Stream())",
    "repr(torch.mtia.Event())", "torch.mtia.is_bf16_supported(False)",
    "issubclass(torch.mtia.DeferredMtiaCallError, Exception)",
]


@pytest.mark.parametrize("call", XPU_CALLS + MTIA_CALLS)
def test_answers_and_refusals_as_torch(call):
    assert outcome(call, gt) == outcome(call, torch)


@pytest.mark.parametrize("module", ["xpu", "mtia"])
def test_every_public_name_exists(module):
    assert [n for n in getattr(torch, module).__all__ if not hasattr(getattr(gt, module), n)] == []


@pytest.mark.parametrize("call", ["torch.get_device_module('xpu').is_available()",
                                  "torch.get_device_module('mtia').device_count()"])
def test_device_modules_are_found(call):
    assert outcome(call, gt) == outcome(call, torch)
