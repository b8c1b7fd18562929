"""torch.cuda as torch's CPU-only wheel has it: the same names, answers and refusals."""
import pytest

import glasstorch as gt
from tests.devices.outcome import outcome

torch = pytest.importorskip("torch")

CALLS = [
    "torch.cuda.is_available()", "torch.cuda.device_count()", "torch.cuda.is_initialized()",
    "torch.cuda.init()", "torch.cuda._lazy_init()", "torch.cuda.current_device()",
    "torch.cuda.is_bf16_supported()", "torch.cuda.is_bf16_supported(False)",
    "torch.cuda.is_tf32_supported()", "torch.cuda.get_arch_list()",
    "torch.cuda.get_gencode_flags()", "torch.cuda.set_device(-1)", "torch.cuda.set_device(0)",
    "torch.cuda.set_device('cpu')", "torch.cuda.set_device(None)",
    "torch.cuda.set_device(torch.device('cuda'))", "torch.cuda.set_device('cuda:0')",
    "torch.cuda.get_device_name()", "torch.cuda.get_device_name(5)",
    "torch.cuda.get_device_capability()", "torch.cuda.get_device_properties(0)",
    "torch.cuda.can_device_access_peer(0, 1)", "torch.cuda.synchronize()",
    "torch.cuda.synchronize('cpu')", "torch.cuda.ipc_collect()", "torch.cuda.cudart()",
    "torch.cuda.current_blas_handle()", "torch.cuda.current_solver_handle()",
    "torch.cuda.get_sync_debug_mode()", "torch.cuda.set_sync_debug_mode(0)",
    "torch.cuda.current_stream()", "torch.cuda.default_stream()",
    "torch.cuda.get_stream_from_external(0)", "torch.cuda.set_stream(None)",
    "torch.cuda.set_stream(torch.Stream())", "torch.cuda.stream(None).__enter__()",
    "torch.cuda.StreamContext(torch.Stream()).__enter__()", "torch.cuda.Stream()",
    "torch.cuda.Stream(priority=-1)", "torch.cuda.Event()", "torch.cuda.Event(enable_timing=True)",
    "torch.cuda.ExternalStream(5)", "torch.cuda.device(0).idx", "torch.cuda.device(-1).idx",
    "torch.cuda.device('cuda').idx", "torch.cuda.device(torch.device('cuda', 0)).idx",
    "torch.cuda.device('cpu')", "torch.cuda.device(0).__enter__()",
    "torch.cuda.device(-1).__enter__()", "torch.cuda.device(None).__enter__()",
    "torch.cuda.device_of(torch.ones(1)).idx", "torch.cuda.device_of(torch.ones(1)).__enter__()",
    "torch.cuda.device_of(None)",
    # memory
    "torch.cuda.memory_allocated()", "torch.cuda.memory_allocated(0)",
    "torch.cuda.max_memory_allocated()", "torch.cuda.memory_reserved()",
    "torch.cuda.max_memory_reserved()", "torch.cuda.memory_cached()",
    "torch.cuda.max_memory_cached()", "torch.cuda.memory_stats()", "torch.cuda.memory_stats(0)",
    "torch.cuda.memory_stats_as_nested_dict()", "torch.cuda.host_memory_stats()",
    "torch.cuda.host_memory_stats_as_nested_dict()", "torch.cuda.memory_summary()",
    "torch.cuda.empty_cache()", "torch.cuda.reset_peak_memory_stats()",
    "torch.cuda.reset_accumulated_memory_stats()", "torch.cuda.reset_max_memory_allocated()",
    "torch.cuda.reset_max_memory_cached()", "torch.cuda.reset_peak_host_memory_stats()",
    "torch.cuda.reset_accumulated_host_memory_stats()", "torch.cuda.memory_snapshot()",
    "torch.cuda.get_allocator_backend()", "torch.cuda.caching_allocator_alloc(10)",
    "torch.cuda.caching_allocator_delete(0)", "torch.cuda.caching_allocator_enable(False)",
    "torch.cuda.caching_allocator_disabled().__enter__()", "torch.cuda.mem_get_info()",
    "torch.cuda.get_per_process_memory_fraction()",
    "torch.cuda.set_per_process_memory_fraction(0.5)", "torch.cuda.list_gpu_processes()",
    "torch.cuda.change_current_allocator(None)", "torch.cuda.MemPool()",
    "torch.cuda.use_mem_pool(None).__enter__()",
    # random
    "torch.cuda.manual_seed(1)", "torch.cuda.manual_seed(5.5)", "torch.cuda.manual_seed('a')",
    "torch.cuda.manual_seed_all(3)", "torch.cuda.manual_seed_all('3')", "torch.cuda.seed()",
    "torch.cuda.seed_all()", "torch.cuda.initial_seed()", "torch.cuda.get_rng_state()",
    "torch.cuda.get_rng_state(0)", "torch.cuda.get_rng_state_all()",
    "torch.cuda.set_rng_state(torch.zeros(3, dtype=torch.uint8))",
    "torch.cuda.set_rng_state(None)", "torch.cuda.set_rng_state_all([])",
    # graphs, errors, NVML
    "torch.cuda.CUDAGraph()", "torch.cuda.graph(None)", "torch.cuda.graph_pool_handle()",
    "torch.cuda.is_current_stream_capturing()",
    "torch.cuda.make_graphed_callables(lambda x: x, (torch.ones(1),))",
    "torch.cuda.cudaStatus.SUCCESS", "torch.cuda.cudaStatus.ERROR_NOT_READY",
    "torch.cuda.CudaError(1)", "torch.cuda.check_error(0)", "torch.cuda.clock_rate()",
    "torch.cuda.device_memory_used()", "torch.cuda.memory_usage()", "torch.cuda.power_draw()",
    "torch.cuda.temperature()", "torch.cuda.utilization()", "torch.cuda.has_half",
    "torch.cuda.has_magma", "torch.cuda.default_generators",
    "issubclass(torch.cuda.OutOfMemoryError, RuntimeError)",
    "torch.cuda.OutOfMemoryError is torch.OutOfMemoryError",
    "torch.cuda.AcceleratorError is torch.AcceleratorError",
    "issubclass(torch.cuda.DeferredCudaCallError, RuntimeError)",
    # legacy types
    "torch.cuda.FloatTensor()", "torch.cuda.LongTensor([1])", "torch.cuda.FloatStorage(2)",
    "torch.cuda.FloatTensor.is_cuda", "torch.cuda.HalfTensor.dtype",
    "isinstance(torch.ones(1), torch.cuda.FloatTensor)",
    # submodules
    "torch.cuda.nvtx.range_push('a')", "torch.cuda.nvtx.range_pop()", "torch.cuda.nvtx.mark('a')",
    "torch.cuda.nvtx.range('a').__enter__()", "torch.cuda.nccl.is_available([])",
    "torch.cuda.nccl.version()", "torch.cuda.profiler.start()", "torch.cuda.profiler.stop()",
    "torch.cuda.tunable.is_enabled()", "torch.cuda.amp.amp_definitely_not_available()",
]


@pytest.mark.parametrize("call", CALLS)
def test_cuda_answers_and_refuses_as_torch(call):
    assert outcome(call, gt) == outcome(call, torch)


def test_every_public_name_of_torch_cuda_exists():
    missing = [name for name in torch.cuda.__all__ if not hasattr(gt.cuda, name)]
    assert not missing
    assert set(torch.cuda.__all__) <= set(dir(gt.cuda))
    for module in ("memory", "random", "graphs", "nvtx", "nccl", "profiler", "tunable",
                   "sparse", "gds", "green_contexts"):
        names = getattr(getattr(torch.cuda, module), "__all__", [])
        assert [n for n in names if not hasattr(getattr(gt.cuda, module), n)] == []


def test_deprecated_names_warn_as_torch():
    for call in ("torch.cuda.memory_cached()", "torch.cuda.max_memory_cached()"):
        with pytest.warns(FutureWarning, match="has been renamed to"):
            eval(call, {"torch": gt})
    with pytest.warns(FutureWarning, match="now calls torch.cuda.reset_peak_memory_stats"):
        with pytest.raises(AttributeError):
            gt.cuda.reset_max_memory_allocated()
    with pytest.warns(UserWarning, match="PyTorch is not compiled with NCCL support"):
        gt.cuda.nccl.is_available([])


def test_the_device_idiom_takes_the_cpu_path():
    device = "cuda" if gt.cuda.is_available() else "cpu"
    assert gt.ones(2, device=device).device.type == "cpu"
