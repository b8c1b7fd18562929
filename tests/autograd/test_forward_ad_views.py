"""Forward-mode AD and views: a view's tangent is the same view of the tangent (shared
memory, so in-place writes through dual views update their base's tangent), tangents take
their primal's layout, and tangents flow under no_grad but not in inference mode. Each
scenario's outcome is recorded from torch 2.13 and compared with torch when importable."""
import pytest

import glasstorch


def _fw(torch):
    return torch.autograd.forward_ad


def _shares(a, b):
    return a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr()


def tangent_of_a_view(torch):
    fw = _fw(torch)
    with fw.dual_level():
        tangent = torch.arange(6.0).view(3, 2)
        dual = fw.make_dual(torch.zeros(3, 2), tangent)
        found = fw.unpack_dual(dual[1]).tangent
        return (fw.unpack_dual(dual).tangent is tangent, _shares(found, tangent),
                found._base is tangent, found.tolist())


def tangent_laid_out_as_primal(torch):
    fw = _fw(torch)
    with fw.dual_level():
        tangent = torch.arange(6.0).view(2, 3).t()
        dual = fw.make_dual(torch.zeros(3, 2), tangent)
        found = fw.unpack_dual(dual).tangent
        return found is tangent, found.stride(), found.tolist()


def inplace_on_a_dual_view(torch):
    fw = _fw(torch)
    with fw.dual_level():
        tangent = torch.ones(3, 2)
        dual = fw.make_dual(torch.ones(3, 2), tangent)
        dual[0].mul_(2)
        return fw.unpack_dual(dual).tangent.tolist(), tangent.tolist()


def inplace_on_base_seen_by_view(torch):
    fw = _fw(torch)
    with fw.dual_level():
        dual = fw.make_dual(torch.ones(3), torch.ones(3))
        view = dual[:2]
        dual.mul_(2)
        return fw.unpack_dual(view).tangent.tolist()


def base_gets_a_tangent(torch):
    fw = _fw(torch)
    with fw.dual_level():
        x = torch.zeros(3)
        x[1].copy_(fw.make_dual(torch.tensor(2.0), torch.tensor(5.0)))
        return fw.unpack_dual(x).tangent.tolist(), fw.unpack_dual(x[1]).tangent.tolist()


def primal_with_an_offset(torch):
    fw = _fw(torch)
    with fw.dual_level():
        dual = fw.make_dual(torch.zeros(4)[1:], torch.ones(3))
        tangent = fw.unpack_dual(dual).tangent
        return (tangent._base, tangent.storage_offset(), tangent.untyped_storage().nbytes(),
                fw.unpack_dual(dual[:1]).tangent._base is tangent)


def in_place_views(torch):
    fw = _fw(torch)
    with fw.dual_level():
        tangent = torch.arange(6.0).view(2, 3)
        dual = fw.make_dual(torch.zeros(2, 3), tangent)
        dual.t_()
        squeezed = fw.make_dual(torch.zeros(2, 1, 3), torch.arange(6.0).view(2, 1, 3))
        with torch.no_grad():
            squeezed.squeeze_(1)
        return (fw.unpack_dual(dual).tangent.tolist(), tuple(tangent.shape),
                fw.unpack_dual(squeezed).tangent.tolist())


def multi_output_views(torch):
    fw = _fw(torch)
    with fw.dual_level():
        dual = fw.make_dual(torch.zeros(4), torch.arange(4.0))
        first, second = dual.split(2)
        return (fw.unpack_dual(first).tangent.tolist(),
                fw.unpack_dual(second).tangent._base is not None)


def transposed_and_selected(torch):
    fw = _fw(torch)
    with fw.dual_level():
        dual = fw.make_dual(torch.zeros(2, 3), torch.arange(6.0).view(2, 3))
        flat = dual.t().contiguous().view(6)
        return (fw.unpack_dual(flat).tangent.tolist(),
                fw.unpack_dual(dual.transpose(0, 1)).tangent.stride(),
                fw.unpack_dual(dual[:, 1]).tangent.tolist())


def complex_real_view(torch):
    fw = _fw(torch)
    with fw.dual_level():
        dual = fw.make_dual(torch.zeros(2, dtype=torch.complex128),
                            torch.tensor([1 + 2j, 3 - 1j]))
        return fw.unpack_dual(torch.view_as_real(dual)).tangent.tolist()


def under_no_grad(torch):
    fw = _fw(torch)
    with fw.dual_level():
        dual = fw.make_dual(torch.tensor([0.0, 1.0, 2.0]), torch.ones(3))
        with torch.no_grad():
            scaled, exp = dual * 3, dual.exp()
        return (fw.unpack_dual(scaled).tangent.tolist(),
                [round(v, 6) for v in fw.unpack_dual(exp).tangent.tolist()])


def inplace_under_no_grad(torch):
    fw = _fw(torch)
    with fw.dual_level():
        dual = fw.make_dual(torch.ones(3), torch.ones(3))
        with torch.no_grad():
            dual.mul_(2)
            view = dual[1:]
            view.mul_(3)
        return fw.unpack_dual(dual).tangent.tolist(), fw.unpack_dual(view).tangent.tolist()


def under_no_grad_requiring_grad(torch):
    fw = _fw(torch)
    with fw.dual_level():
        dual = fw.make_dual(torch.ones(3, requires_grad=True), torch.ones(3))
        with torch.no_grad():
            result = dual * 3
        return fw.unpack_dual(result).tangent.tolist(), result.requires_grad, result.grad_fn


def in_inference_mode(torch):
    fw = _fw(torch)
    with fw.dual_level():
        dual = fw.make_dual(torch.ones(2), torch.ones(2))
        with torch.inference_mode():
            result = dual * 3
        return fw.unpack_dual(result).tangent


def detached_and_primal(torch):
    fw = _fw(torch)
    with fw.dual_level():
        dual = fw.make_dual(torch.ones(3), torch.ones(3))
        primal = fw.unpack_dual(dual).primal
        return (fw.unpack_dual(dual.detach()).tangent, fw.unpack_dual(primal).tangent,
                fw.unpack_dual(dual.view_as(dual)).tangent.tolist())


SCENARIOS = {
    tangent_of_a_view: (True, True, False, [2.0, 3.0]),     # its base: the tangent's base
    tangent_laid_out_as_primal: (False, (2, 1), [[0.0, 3.0], [1.0, 4.0], [2.0, 5.0]]),
    inplace_on_a_dual_view: ([[2.0, 2.0], [1.0, 1.0], [1.0, 1.0]],
                             [[2.0, 2.0], [1.0, 1.0], [1.0, 1.0]]),
    inplace_on_base_seen_by_view: [2.0, 2.0],
    base_gets_a_tangent: ([0.0, 5.0, 0.0], 5.0),
    primal_with_an_offset: (None, 1, 16, True),
    in_place_views: ([[0.0, 3.0], [1.0, 4.0], [2.0, 5.0]], (3, 2),
                     [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]),
    multi_output_views: ([0.0, 1.0], True),
    transposed_and_selected: ([0.0, 3.0, 1.0, 4.0, 2.0, 5.0], (1, 3), [1.0, 4.0]),
    complex_real_view: [[1.0, 2.0], [3.0, -1.0]],
    under_no_grad: ([3.0, 3.0, 3.0], [1.0, 2.718282, 7.389056]),
    inplace_under_no_grad: ([2.0, 6.0, 6.0], [6.0, 6.0]),
    under_no_grad_requiring_grad: ([3.0, 3.0, 3.0], False, None),
    in_inference_mode: None,
    detached_and_primal: (None, None, [1.0, 1.0, 1.0]),
}


@pytest.mark.parametrize("scenario", list(SCENARIOS), ids=lambda f: f.__name__)
def test_as_recorded(scenario):
    assert scenario(glasstorch) == SCENARIOS[scenario]


@pytest.mark.parametrize("scenario", list(SCENARIOS), ids=lambda f: f.__name__)
def test_matches_torch(scenario):
    torch = pytest.importorskip("torch")
    assert scenario(glasstorch) == scenario(torch)


def test_tangents_dropped_with_the_level():
    fw = glasstorch.autograd.forward_ad
    with fw.dual_level():
        dual = fw.make_dual(glasstorch.ones(2), glasstorch.ones(2))
        view = dual[:1]
    assert fw.unpack_dual(view).tangent is None
    assert "ForwardAD" not in repr(glasstorch.c10.dispatch_key.keys_text(dual._keys))
