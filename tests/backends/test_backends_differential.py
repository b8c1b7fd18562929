"""torch.backends as torch's CPU wheel has it: flags with torch's defaults, settable,
checked and restored by the `flags()` contexts; availability answers."""
import pytest

import glasstorch as gt
from tests.devices.outcome import outcome

torch = pytest.importorskip("torch")

CALLS = [
    "torch.backends.cudnn.enabled", "torch.backends.cudnn.benchmark",
    "torch.backends.cudnn.deterministic", "torch.backends.cudnn.allow_tf32",
    "torch.backends.cudnn.benchmark_limit", "torch.backends.cudnn.is_available()",
    "torch.backends.cudnn.version()", "torch.backends.cudnn.is_acceptable(torch.ones(1))",
    "torch.backends.mkldnn.enabled", "torch.backends.mkldnn.deterministic",
    "torch.backends.mkldnn.is_available()", "torch.backends.mkl.is_available()",
    "torch.backends.openmp.is_available()", "torch.backends.opt_einsum.is_available()",
    "torch.backends.opt_einsum.enabled", "torch.backends.opt_einsum.strategy",
    "torch.backends.cuda.is_built()", "torch.backends.cuda.matmul.allow_tf32",
    "torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction",
    "torch.backends.cuda.matmul.allow_bf16_reduced_precision_reduction",
    "torch.backends.cuda.matmul.foo", "torch.backends.cuda.flash_sdp_enabled()",
    "torch.backends.cuda.math_sdp_enabled()", "torch.backends.cuda.mem_efficient_sdp_enabled()",
    "torch.backends.cuda.cudnn_sdp_enabled()", "torch.backends.cuda.is_flash_attention_available()",
    "torch.backends.mps.is_available()", "torch.backends.mps.is_built()",
    "torch.backends.mps.is_macos13_or_newer()", "torch.backends.mps.get_name()",
    "torch.backends.mha.get_fastpath_enabled()",
    "repr(torch.backends.cuda.preferred_linalg_library())",
    "str(torch.backends.cuda.preferred_linalg_library('default'))",
    "torch.backends.cuda.preferred_linalg_library('cusolver')",
    "torch.backends.cuda.preferred_linalg_library('magma')",
    "torch.backends.cuda.preferred_linalg_library('foo')",
    "str(torch.backends.cuda.preferred_blas_library())",
    "torch.backends.cuda.preferred_blas_library('cublaslt')",
    "torch.backends.cuda.preferred_blas_library('foo')",
    "str(torch.backends.cuda.preferred_rocm_fa_library())",
    "torch.backends.cuda.is_ck_sdpa_available()", "torch.backends.cuda.cublas_workspace_size()",
    "torch.backends.cuda.cublaslt_workspace_size()", "torch.backends.cuda.cufft_plan_cache.size",
    "torch.backends.cuda.cufft_plan_cache.max_size", "torch.backends.cuda.cufft_plan_cache[0]",
    "torch.backends.cuda.cuFFTPlanCache(0).clear()", "torch.backends.cuda.can_use_flash_attention(None)",
    "[(k, int(v)) for k, v in torch.backends.cuda.SDPBackend.__members__.items()]",
    "repr(torch.backends.cuda.SDPBackend.MATH)", "torch.backends.nnpack.is_available()",
    "torch.backends.nnpack.enabled", "torch.backends.cusparselt.is_available()",
    "torch.backends.cusparselt.version()", "torch.backends.cusparselt.get_max_alg_id()",
    "torch.backends.kleidiai.is_available()",
    "torch.backends.miopen.immediate", "torch.backends.quantized.engine",
    "torch.backends.quantized.supported_engines", "torch.backends.cpu.get_cpu_capability()",
]


@pytest.mark.parametrize("call", CALLS)
def test_backend_answers_as_torch(call):
    assert outcome(call, gt) == outcome(call, torch)


@pytest.mark.parametrize("lib", [gt, torch])
def test_flags_are_settable_and_flags_contexts_restore(lib):
    backends = lib.backends
    backends.cuda.matmul.allow_tf32 = True
    assert backends.cuda.matmul.allow_tf32 is True
    backends.cuda.matmul.allow_tf32 = False
    backends.cudnn.benchmark = True
    assert backends.cudnn.benchmark is True
    backends.cudnn.benchmark = False
    with backends.cudnn.flags(enabled=False, benchmark=True):
        assert (backends.cudnn.enabled, backends.cudnn.benchmark) == (False, True)
        assert backends.cudnn.deterministic is False
    assert (backends.cudnn.enabled, backends.cudnn.benchmark) == (True, False)
    with pytest.warns(UserWarning, match="TF32 acceleration on top of oneDNN"):
        with backends.mkldnn.flags(enabled=False):
            assert backends.mkldnn.enabled is False
    assert backends.mkldnn.enabled is True
    assert backends.cudnn.set_flags(False) == (True, False, None, False, True, "none", "auto") \
        or lib is gt and backends.cudnn.set_flags(False)[:2] == (False, False)
    backends.cudnn.enabled = True


@pytest.mark.parametrize("assignment", ["torch.backends.cudnn.enabled = 3",
                                        "torch.backends.opt_einsum.enabled = 1",
                                        "torch.backends.quantized.engine = 'foo'",
                                        "torch.backends.cudnn.deterministic = 'yes'",
                                        "torch.backends.cuda.matmul.foo = 1"])
def test_bad_flag_values_are_refused_as_torch(assignment):
    results = []
    for lib in (gt, torch):
        try:
            exec(assignment, {"torch": lib})
            results.append(None)
        except Exception as error:
            results.append((type(error).__name__, str(error)))
    assert results[0] == results[1]
    assert gt.backends.cudnn.enabled is True and gt.backends.cudnn.deterministic is False
    for lib in (gt, torch):
        lib.backends.opt_einsum.enabled = lib.backends.opt_einsum.is_available()


@pytest.mark.parametrize("lib", [gt, torch])
def test_nnpack_flags_and_quantized_engine(lib):
    backends = lib.backends
    with backends.nnpack.flags(enabled=False):
        assert backends.nnpack.set_flags(False) == (False,)
    assert backends.nnpack.set_flags(True) == (True,)
    backends.quantized.engine = "qnnpack"
    assert backends.quantized.engine == "qnnpack"
    backends.quantized.engine = "x86"


def _frozen_flags(lib):
    backends = lib.backends
    seen = [backends.flags_frozen()]
    backends.disable_global_flags()
    try:
        seen.append(backends.flags_frozen())
        for assignment in ("torch.backends.cudnn.benchmark = True",
                           "torch.backends.mkldnn.enabled = False",
                           "torch.backends.cudnn.benchmark_limit = 3",
                           "torch.backends.cuda.matmul.allow_tf32 = False"):
            try:
                exec(assignment, {"torch": lib})
                seen.append("ok")
            except RuntimeError as error:
                seen.append(str(error))
        seen.append(backends.cudnn.set_flags(True)[:2])
        with backends.cudnn.flags(enabled=True, benchmark=True):
            seen.append(backends.cudnn.benchmark)
        seen.append(backends.cudnn.benchmark)
    finally:
        if lib is gt:
            gt.backends._GLOBAL_FLAGS["mutable"] = True
        else:
            vars(torch.backends)["__allow_nonbracketed_mutation_flag"] = True
        backends.cudnn.benchmark_limit = None
    return seen


def test_disable_global_flags_as_torch():
    assert _frozen_flags(gt) == _frozen_flags(torch)
    gt.backends.cudnn.benchmark = False             # mutable again
