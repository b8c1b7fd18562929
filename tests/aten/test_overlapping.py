"""Writes through self-overlapping views reach memory in torch's order (Note
[Overlapping writes] in aten/overlapping.py), against torch."""
import numpy as np
import pytest

import glasstorch as gt
from glasstorch.aten.overlapping import overlaps_itself

torch = pytest.importorskip("torch")

CASES = [
    # the example: each write of the loop reads the ones before it
    "x = torch.zeros(3); x.as_strided((2, 2), (1, 1)).add_(101)",
    "x = torch.arange(6.); x.unfold(0, 3, 1).mul_(2)",
    "x = torch.arange(6.); v = x.unfold(0, 3, 1); v.mul_(v)",
    "x = torch.ones(4); x.as_strided((3, 2), (1, 1)).add_(torch.tensor([[1., 2.], [3., 4.], "
    "[5., 6.]]))",
    "x = torch.ones(3, dtype=torch.float64); x.as_strided((2, 2), (1, 1)).exp_()",
    "x = torch.ones(5); v = x.unfold(0, 2, 1); v.add_(v.clone())",
    # TensorIterator visits the smaller stride innermost: that decides the last writer
    "x = torch.zeros(5); x.as_strided((3, 2), (1, 2)).lerp_(torch.tensor([[1., 2.], [3., 4.], "
    "[5., 6.]]), 0.5)",
    "x = torch.zeros(5); x.as_strided((3, 2), (1, 2)).copy_(torch.tensor([[1., 2.], [3., 4.], "
    "[5., 6.]]))",
    "x = torch.zeros(5); torch.mul(torch.tensor([[1., 2.], [3., 4.], [5., 6.]]), 1, "
    "out=x.as_strided((3, 2), (1, 2)))",
    "x = torch.zeros(3); x.as_strided((2, 2), (1, 1)).fill_(7)",
    "x = torch.arange(10.); v = x.as_strided((4, 4), (2, 1)); v.addcmul_(v, v, value=0.5)",
    "x = torch.arange(10, dtype=torch.float64); x.as_strided((4, 4), (2, 1)).sqrt_()",
    "x = torch.arange(10).to(torch.float16); x.as_strided((4, 4), (2, 1)).mul_(1.5)",
    "x = torch.arange(10); x.as_strided((4, 4), (2, 1)).mul_(3)",
    "x = torch.arange(40.); x.unfold(0, 20, 2).mul_(1.5)",
    "x = torch.arange(100.); x.as_strided((10, 40), (3, 1)).mul_(1.01)",
    "x = torch.zeros(4, dtype=torch.complex64); v = x.as_strided((2, 3), (1, 1)); v.add_(1j); "
    "v.mul_(1 + 1j)",
    "x = torch.arange(5.); v = x.as_strided((3, 3), (1, 1)); v.clamp_(max=2.5); "
    "v.addcdiv_(v, v + 1)",
    "x = torch.arange(12.).view(3, 4); x.t().as_strided((3, 3), (1, 1)).add_(1)",
    # strided but not overlapping: the ordinary path
    "x = torch.arange(12.).view(3, 4); x.t()[::2].mul_(2)",
]


@pytest.mark.parametrize("case", CASES)
def test_overlapping_writes_match_torch(case):
    found = []
    for lib in (gt, torch):
        scope = {"torch": lib}
        exec(case, scope)
        found.append(np.asarray(scope["x"].tolist()))
    np.testing.assert_array_equal(found[0], found[1])


def test_only_overlapping_arrays_take_the_ordered_path():
    base = np.zeros(10)
    assert not overlaps_itself(base) and not overlaps_itself(base[::2])
    assert not overlaps_itself(base.reshape(2, 5).T)
    assert overlaps_itself(np.lib.stride_tricks.as_strided(base, (2, 2), (8, 8)))
    assert overlaps_itself(np.broadcast_to(base[:1], (3,)))


def test_expanded_tensors_are_still_refused():
    for lib in (gt, torch):
        with pytest.raises(RuntimeError, match="more than one element of the written-to"):
            lib.zeros(1).expand(3).add_(1)
