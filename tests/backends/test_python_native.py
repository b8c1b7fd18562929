"""torch.backends.python_native: the DSL switches, answering as torch's CPU build."""
import pytest

import glasstorch as gt


def story(backends) -> list:
    native = backends.python_native
    out = [native.all_dsls, native.available_dsls, repr(native.triton),
           native.triton.available, native.triton.version, native.get_dsl_operations("triton")]
    native.triton.disable()
    out += [repr(native.triton), native.is_dsl_disabled("triton"), native.is_dsl_disabled("x")]
    native.triton.enable()
    with native.cutedsl.disabled():
        out.append(native.is_dsl_disabled("cutedsl"))
    out.append(native.is_dsl_disabled("cutedsl"))
    native.disable_operations("aten::add")
    out.append(native.is_operation_disabled("aten::add"))
    native.enable_operations("aten::add")
    with native.operations_disabled("aten::mm"):
        out.append(native.is_operation_disabled("aten::mm"))
    out.append(native.is_operation_disabled("aten::mm"))
    native.disable_dispatch_keys("CPU")
    native.enable_dispatch_keys("CPU")
    return out


def test_switches_as_torchs():
    torch = pytest.importorskip("torch")
    import torch.backends.python_native  # noqa: F401  (torch loads it on first use too)
    assert story(gt.backends) == story(torch.backends)


def test_no_dsl_is_available():
    assert gt.backends.python_native.available_dsls == []
    assert story(gt.backends)[7] is True
