"""The global settings of `aten/context.py`, against torch's answers and refusals."""
import warnings

import pytest

import glasstorch as gt

torch = pytest.importorskip("torch")


@pytest.fixture(autouse=True)
def restore_settings():
    yield
    for lib in (gt, torch):
        lib.use_deterministic_algorithms(False)
        lib.set_float32_matmul_precision("highest")
        lib.set_warn_always(False)


def _same_outcome(call):
    """Run `call(lib)` on both libraries: the same result, or the same error."""
    outcomes = []
    for lib in (torch, gt):
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                value = call(lib)
            outcomes.append(("ok", value, [str(w.message).split(" (Triggered")[0]
                                           for w in caught]))
        except Exception as error:   # noqa: BLE001 - the error is the outcome
            outcomes.append((type(error).__name__, str(error)))
    assert outcomes[0] == outcomes[1]


@pytest.mark.parametrize("mode, warn_only", [(True, False), (True, True), (False, False)])
def test_deterministic_settings_answer_as_torch(mode, warn_only):
    def call(lib):
        lib.use_deterministic_algorithms(mode, warn_only=warn_only)
        return (lib.are_deterministic_algorithms_enabled(),
                lib.is_deterministic_algorithms_warn_only_enabled(),
                lib.get_deterministic_debug_mode())
    _same_outcome(call)


@pytest.mark.parametrize("value", ["default", "warn", "error", 0, 1, 2, "bad", 5, 3.0])
def test_debug_mode_as_torch(value):
    def call(lib):
        lib.set_deterministic_debug_mode(value)
        return (lib.get_deterministic_debug_mode(), lib.are_deterministic_algorithms_enabled())
    _same_outcome(call)


@pytest.mark.parametrize("args, kwargs", [((1,), {}), (("x",), {}), ((None,), {}),
                                          ((True,), {"warn_only": 1})])
def test_deterministic_refusals_as_torch(args, kwargs):
    _same_outcome(lambda lib: lib.use_deterministic_algorithms(*args, **kwargs))


@pytest.mark.parametrize("precision", ["high", "medium", "highest", "bad", 3])
def test_matmul_precision_as_torch(precision):
    def call(lib):
        lib.set_float32_matmul_precision(precision)
        return lib.get_float32_matmul_precision()
    _same_outcome(call)


@pytest.mark.parametrize("value", [True, False, 1])
def test_warn_always_as_torch(value):
    def call(lib):
        lib.set_warn_always(value)
        return lib.is_warn_always_enabled()
    _same_outcome(call)


def test_flush_denormal():
    """glasstorch cannot set the CPU's denormal mode: it says so (False), as torch does
    where the CPU lacks it; a non-bool is refused in torch's words."""
    assert gt.set_flush_denormal(True) is False
    _same_outcome(lambda lib: lib.set_flush_denormal(1))


@pytest.mark.parametrize("dtype", ["float32", "float16", "bfloat16", "complex64", "int32",
                                   "uint8", "bool"])
def test_deterministic_mode_fills_uninitialized_memory_as_torch(dtype):
    def call(lib):
        lib.use_deterministic_algorithms(True)
        d = getattr(lib, dtype)
        grown = lib.zeros(2, dtype=d)
        grown.resize_(4)
        made = [lib.empty(2, dtype=d), lib.empty_like(lib.zeros(2, dtype=d)),
                lib.empty_strided((2,), (1,), dtype=d), lib.zeros(1, dtype=d).new_empty(2),
                grown]
        return [str(t.tolist()) for t in made]
    _same_outcome(call)


def test_fill_uninitialized_memory_switch_as_torch():
    def call(lib):
        lib.use_deterministic_algorithms(True)
        lib.utils.deterministic.fill_uninitialized_memory = False
        try:
            return lib.utils.deterministic.fill_uninitialized_memory
        finally:
            lib.utils.deterministic.fill_uninitialized_memory = True
    _same_outcome(call)
    gt.use_deterministic_algorithms(True)
    gt.utils.deterministic.fill_uninitialized_memory = False
    try:
        assert not gt.empty(3).isnan().any()        # (torch's would be whatever was there)
    finally:
        gt.utils.deterministic.fill_uninitialized_memory = True
    _same_outcome(lambda lib: setattr(lib.utils.deterministic, "fill_uninitialized_memory", 1))
