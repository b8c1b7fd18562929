"""The values harness's comparison up to a vector's gauge (Note [Vectors up to their
gauge] in op_db_gauge.py): it forgives exactly the freedom torch documents, nothing more."""
import math

import pytest

import op_db_gauge as gauge
import op_db_harness as harness

torch = pytest.importorskip("torch")


def _matches(name: str, expected, actual) -> bool:
    """Whether glasstorch's `actual` (given as torch tensors) passes for torch's `expected`."""
    converted = tuple(harness.to_glasstorch(t.contiguous(), torch) for t in actual)
    turned = gauge.turned(name, expected, converted, lambda t: harness.to_torch(t, torch),
                          lambda t: harness.to_glasstorch(t, torch))
    return harness.compare(tuple(expected), turned, torch, (None, None)) is None


def _svd(shape, full_matrices=True, dtype=torch.float64):
    torch.manual_seed(0)
    return torch.linalg.svd(torch.randn(shape, dtype=dtype), full_matrices=full_matrices)


@pytest.mark.parametrize("dtype", [torch.float64, torch.complex128])
def test_a_singular_pair_may_turn_together(dtype):
    U, S, Vh = _svd((2, 4, 3), False, dtype)
    phase = torch.tensor([1, -1, 1], dtype=dtype) if not dtype.is_complex else \
        torch.polar(torch.ones(3, dtype=torch.float64), torch.tensor([0.3, 2.0, -1.0],
                                                                     dtype=torch.float64))
    assert _matches("linalg.svd", (U, S, Vh), (U * phase, S, phase.conj()[:, None] * Vh))


def test_a_singular_vector_may_not_turn_alone():
    U, S, Vh = _svd((4, 3), False)
    flip = torch.tensor([1.0, -1.0, 1.0], dtype=torch.float64)
    assert not _matches("linalg.svd", (U, S, Vh), (U, S, flip[:, None] * Vh))
    assert not _matches("linalg.svd", (U, S, Vh), (U[:, [1, 0, 2]], S, Vh[[1, 0, 2]]))


def test_a_full_svd_completion_may_mix_but_not_leave_its_span():
    U, S, Vh = _svd((3, 5))
    angle = 0.7
    rotation = torch.tensor([[math.cos(angle), -math.sin(angle)],
                             [math.sin(angle), math.cos(angle)]], dtype=torch.float64)
    mixed = torch.cat([Vh[:3], rotation @ Vh[3:]])
    assert _matches("linalg.svd", (U, S, Vh), (U, S, mixed))
    outside = torch.cat([Vh[:3], Vh[[3, 0]]])           # a vector of another span
    assert not _matches("linalg.svd", (U, S, Vh), (U, S, outside))


def test_torch_svd_returns_V_not_its_adjoint():
    U, S, Vh = _svd((4, 3), False)
    flip = torch.tensor([-1.0, 1.0, 1.0], dtype=torch.float64)
    assert _matches("svd", (U, S, Vh.mH), (U * flip, S, Vh.mH * flip))
    assert not _matches("svd", (U, S, Vh.mH), (U * flip, S, Vh.mH))


def test_eig_may_reorder_and_turn_its_pairs_but_values_still_count():
    torch.manual_seed(1)
    L, V = torch.linalg.eig(torch.randn(4, 4, dtype=torch.float64))
    order = [2, 0, 3, 1]
    phase = torch.polar(torch.ones(4, dtype=torch.float64),
                        torch.tensor([0.5, -2.0, 1.0, 3.0], dtype=torch.float64))
    assert _matches("linalg.eig", (L, V), (L[order], V[:, order] * phase))
    values = gauge.turned("linalg.eigvals", L, harness.to_glasstorch(L[order], torch),
                          lambda t: harness.to_torch(t, torch),
                          lambda t: harness.to_glasstorch(t, torch))
    assert values.tolist() == L.tolist()
    assert not _matches("linalg.eig", (L, V), (L * 1.01, V))


def test_eigh_vectors_turn_per_column_only():
    torch.manual_seed(2)
    a = torch.randn(4, 4, dtype=torch.float64)
    L, Q = torch.linalg.eigh(a + a.mT)
    assert _matches("linalg.eigh", (L, Q), (L, Q * torch.tensor([1.0, -1, -1, 1],
                                                                 dtype=torch.float64)))
    assert not _matches("linalg.eigh", (L, Q), (L, Q[:, [1, 0, 2, 3]]))
    assert not _matches("qr", (L, Q), (L, -Q))          # other records compared as they are
