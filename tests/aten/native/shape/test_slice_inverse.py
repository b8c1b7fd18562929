"""`slice_inverse` against torch: a view of the slice's storage with the source's
geometry, and its gradients (the slice of the gradient for `self`, zeros for `src`)."""
import pytest

import glasstorch as gt

torch = pytest.importorskip("torch")


def _geometry(lib):
    base = lib.arange(12.0).reshape(3, 4)
    part = base[:, 1:3]
    result = lib.slice_inverse(part, base, 1, 1, 3)
    return (tuple(result.shape), result.stride(), result.storage_offset(), result._is_view(),
            result.data_ptr() == base.data_ptr(), result.tolist())


def test_views_the_slice_storage_as_the_source():
    assert _geometry(gt) == _geometry(torch)


def _gradients(lib):
    a = lib.arange(4.0, requires_grad=True)
    src = lib.zeros(4, requires_grad=True)
    result = lib.slice_inverse(a * 1, src, 0, 0, 4)
    (result * lib.arange(4.0)).sum().backward()
    return type(result.grad_fn).__name__, a.grad.tolist(), src.grad.tolist()


def test_gradients_as_torch():
    assert _gradients(gt) == _gradients(torch)


def test_a_partial_slice_gradient_is_refused_as_torch():
    errors = []
    for lib in (gt, torch):
        a = lib.ones(4, requires_grad=True)
        with pytest.raises(RuntimeError) as caught:
            lib.slice_inverse(a * 2, lib.zeros(4), 0, 0, 2).sum().backward()
        errors.append(str(caught.value))
    assert errors[0] == errors[1]
