"""torch.utils._pytree's flatten, unflatten and map, against torch's."""
import collections

import pytest

from glasstorch.utils import _pytree as ours

theirs = pytest.importorskip("torch.utils._pytree")

Point = collections.namedtuple("Point", "x y")
TREES = [
    1, None, [], (), {}, [1, (2, 3)], {"b": [1, 2], "a": Point(3, None)},
    collections.OrderedDict(z=1, a=(2,)), collections.defaultdict(list, {"k": [4, 5]}),
    collections.deque([6, [7]], maxlen=4), {"s": {1, 2}, "t": "text"},
]


@pytest.mark.parametrize("tree", TREES, ids=repr)
def test_flatten_and_unflatten(tree):
    leaves, spec = ours.tree_flatten(tree)
    expected_leaves, expected_spec = theirs.tree_flatten(tree)
    assert leaves == expected_leaves
    assert repr(spec) == repr(expected_spec)
    assert (spec.num_leaves, spec.num_nodes) == (expected_spec.num_leaves,
                                                 expected_spec.num_nodes)
    rebuilt = ours.tree_unflatten([("new", leaf) for leaf in leaves], spec)
    assert rebuilt == theirs.tree_unflatten([("new", leaf) for leaf in leaves], expected_spec)
    assert spec.is_leaf() or type(rebuilt) is type(tree)
    assert ours.tree_leaves(tree) == theirs.tree_leaves(tree)
    assert ours.tree_structure(tree) == spec


def test_map_over_several_trees_and_with_is_leaf():
    args = ([1, (2,)], [10, (20,)])
    assert ours.tree_map(lambda a, b: a + b, *args) == theirs.tree_map(lambda a, b: a + b, *args)
    is_pair = lambda x: isinstance(x, list) and len(x) == 2  # noqa: E731
    tree = [1, [2, 3]]
    assert ours.tree_map(str, tree, is_leaf=is_pair) == theirs.tree_map(str, tree,
                                                                        is_leaf=is_pair)


@pytest.mark.parametrize("rest", [[10, 20], [10, (20,), 30]], ids=repr)
def test_map_refuses_a_different_shape(rest):
    errors = []
    for library in (ours, theirs):
        with pytest.raises(ValueError) as caught:
            library.tree_map(lambda a, b: a + b, [1, (2,)], rest)
        errors.append(str(caught.value))
    assert errors[0] == errors[1]


def test_unflatten_refuses_a_wrong_leaf_count():
    errors = []
    for library in (ours, theirs):
        with pytest.raises(ValueError) as caught:
            library.tree_unflatten([1], library.tree_structure([1, (2, 3)]))
        errors.append(str(caught.value))
    assert errors[0] == errors[1]


def test_checkpoint_reexports():
    import glasstorch.utils.checkpoint as checkpoint
    from glasstorch.autograd.saved import SavedTensor
    from glasstorch.utils._python_dispatch import TorchDispatchMode
    assert checkpoint.tree_map is ours.tree_map
    assert checkpoint.TorchDispatchMode is TorchDispatchMode
    assert checkpoint.SavedTensor is SavedTensor
