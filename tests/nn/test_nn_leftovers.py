"""The last modules of torch.nn: LazyLinear, the deprecated Container, and
torch.nn.attention's backend switches."""
import pickle
import warnings

import numpy as np
import pytest

import glasstorch as gt


def test_lazy_linear_becomes_linear_with_torchs_weights():
    torch = pytest.importorskip("torch")
    torch.manual_seed(4)
    gt.manual_seed(4)
    theirs, mine = torch.nn.LazyLinear(3), gt.nn.LazyLinear(3)
    assert mine.has_uninitialized_params() and mine.in_features == 0
    assert repr(mine) == repr(theirs)
    x = np.random.default_rng(0).standard_normal((2, 5)).astype(np.float32)
    expected, actual = theirs(torch.from_numpy(x)), mine(gt.from_numpy(x))
    assert type(mine) is gt.nn.Linear and mine.in_features == 5
    np.testing.assert_allclose(actual.detach().numpy(), expected.detach().numpy(), rtol=1e-6)
    assert repr(mine) == repr(theirs)


def test_lazy_linear_without_bias_and_from_a_checkpoint():
    source = gt.nn.Linear(4, 2, bias=False)
    lazy = gt.nn.LazyLinear(2, bias=False)
    lazy.load_state_dict(source.state_dict())
    assert lazy.weight.shape == (2, 4) and lazy.bias is None
    assert gt.equal(lazy(gt.ones(1, 4)), source(gt.ones(1, 4)))


def test_container_registers_its_modules_and_warns():
    with pytest.warns(FutureWarning, match="`nn.Container` is deprecated"):
        box = gt.nn.Container(first=gt.nn.Linear(2, 2), second=gt.nn.ReLU())
    assert list(dict(box.named_children())) == ["first", "second"]
    assert len(list(box.parameters())) == 2
    assert isinstance(pickle.loads(pickle.dumps(box)).first, gt.nn.Linear)


def test_sdpa_kernel_sets_and_restores_the_switches():
    from glasstorch.nn.attention import SDPBackend, sdpa_kernel
    cuda = gt.backends.cuda
    before = (cuda.flash_sdp_enabled(), cuda.math_sdp_enabled())
    with sdpa_kernel([SDPBackend.MATH, SDPBackend.MATH]) as state:
        assert state == {}
        assert (cuda.flash_sdp_enabled(), cuda.math_sdp_enabled()) == (False, True)
        with sdpa_kernel(SDPBackend.FLASH_ATTENTION):
            assert (cuda.flash_sdp_enabled(), cuda.math_sdp_enabled()) == (True, False)
        assert cuda.math_sdp_enabled() and not cuda.mem_efficient_sdp_enabled()
    assert (cuda.flash_sdp_enabled(), cuda.math_sdp_enabled()) == before
    with pytest.raises(AssertionError, match="Backend must be an instance of SDPBackend or a "
                                             "list of SDPBackend instances, got str"):
        with sdpa_kernel("math"):
            pass


def test_attention_namespace_matches_torch():
    pytest.importorskip("torch")
    import torch.nn.attention as theirs
    mine = gt.nn.attention
    assert sorted(mine.__all__) == sorted(theirs.__all__)
    assert {b.name: int(b) for b in mine.SDPBackend} == \
        {name: int(getattr(theirs.SDPBackend, name)) for name in
         ("ERROR", "MATH", "FLASH_ATTENTION", "EFFICIENT_ATTENTION", "CUDNN_ATTENTION",
          "OVERRIDEABLE")}
    assert mine.current_flash_attention_impl() is None
    with pytest.raises(ValueError, match="Unknown flash attention impl 'x'"):
        mine.activate_flash_attention_impl("x")



def _backend_outcome(library, query, kernel, backend, **kwargs) -> str:
    """The node attention records inside ``kernel(backend)``, or its refusal."""
    try:
        with kernel(backend), warnings.catch_warnings():
            warnings.simplefilter("ignore")     # torch's reasons for skipping flash
            result = library.nn.functional.scaled_dot_product_attention(query, query, query,
                                                                        **kwargs)
            return type(result.grad_fn).__name__
    except RuntimeError as error:
        return str(error)


@pytest.mark.parametrize("backend, kwargs", [("MATH", {}), ("FLASH_ATTENTION", {}),
                                             ("FLASH_ATTENTION", {"dropout_p": 0.5}),
                                             ("EFFICIENT_ATTENTION", {})])
def test_sdpa_kernel_chooses_the_backend_as_torch(backend, kwargs):
    torch = pytest.importorskip("torch")
    import torch.nn.attention as theirs
    q = torch.randn(1, 2, 3, 4, requires_grad=True)
    gq = gt.from_numpy(q.detach().numpy()).requires_grad_()
    expected = _backend_outcome(torch, q, theirs.sdpa_kernel,
                                getattr(theirs.SDPBackend, backend), **kwargs)
    actual = _backend_outcome(gt, gq, gt.nn.attention.sdpa_kernel,
                              getattr(gt.nn.attention.SDPBackend, backend), **kwargs)
    assert actual == expected
