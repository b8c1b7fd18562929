"""nn.Module and nn.Parameter: registration, iteration orders and prefixes, lookup by
path, conversions, modes, reprs, copies and errors (state dicts: test_module_state.py,
hooks: test_module_hooks.py).

Most tests are scenarios written once as ``scenario(torch)`` and run on both glasstorch
and real torch (``same_outcome``: equal results, or the same exception type and
message); the torch-free tests at the end check what needs no reference.
"""
import copy
import pickle
import random

import pytest

import glasstorch as gt
from module_zoo import layers, names, shared_net
from nn_compare import same_outcome


# ----- registration through attributes and its errors -----------------------------------------
def _assign_tensor_to_parameter(torch):
    m = layers(torch).Affine(2, 2)
    m.weight = torch.ones(2, 2)


def _assign_module_to_parameter(torch):
    m = layers(torch).Affine(2, 2)
    m.bias = torch.nn.Module()
    return names(m.named_parameters()), names(m.named_modules())


def _assign_string_to_module(torch):
    m = layers(torch).Net()
    m.head = "x"


def _assign_string_to_buffer(torch):
    m = layers(torch).Norm(2)
    m.running_mean = 3


def _reassign_kinds(torch):
    m = layers(torch).Norm(2)
    m.scale = None                                  # a parameter slot set to None
    m.running_mean = torch.ones(2)                  # stays a (persistent) buffer
    m.scratch = torch.ones(2)                       # stays non-persistent
    m.plain = torch.ones(1)                         # a plain attribute
    m.running_mean = torch.nn.Parameter(torch.ones(2))   # becomes a parameter
    return (list(m.state_dict()), names(m.named_parameters()), names(m.named_buffers()),
            m.plain)


def _register_errors(torch):
    m, results = layers(torch).Affine(2, 2), []
    calls = [lambda: m.register_buffer("a.b", None), lambda: m.register_buffer("", None),
             lambda: m.register_buffer("weight", torch.ones(1)),
             lambda: m.register_buffer(3, None), lambda: m.register_buffer("x", [1]),
             lambda: m.register_parameter("a.b", None), lambda: m.register_parameter("", None),
             lambda: m.register_parameter("forward", None),
             lambda: m.register_parameter("p", torch.ones(1)),
             lambda: m.register_parameter("p", torch.nn.Parameter(torch.ones(1)) * 2),
             lambda: m.add_module("a.b", None), lambda: m.add_module("", None),
             lambda: m.add_module("weight", torch.nn.Module()), lambda: m.add_module("x", 3),
             lambda: m.add_module(1, None), lambda: m.register_module("bias", None)]
    for call in calls:
        try:
            call()
            results.append("ok")
        except Exception as error:
            results.append((type(error).__name__, str(error)))
    return results


def _before_init(torch):
    class Early(torch.nn.Module):
        def __init__(self):
            self.w = torch.nn.Parameter(torch.ones(1))
    Early()


def _before_init_module(torch):
    class Early(torch.nn.Module):
        def __init__(self):
            self.sub = torch.nn.Module()
    Early()


def _init_arguments(torch):
    errors = []
    for call in (lambda: torch.nn.Module(3), lambda: torch.nn.Module(k=1)):
        try:
            call()
        except TypeError as error:
            errors.append(str(error))
    return errors


def _delattr_and_getattr(torch):
    m = layers(torch).Norm(2)
    del m.scale, m.scratch
    m.sub = torch.nn.Module()
    del m.sub
    try:
        m.missing
    except AttributeError as error:
        message = str(error)
    return list(m.state_dict()), names(m.named_buffers()), list(m._modules), message


def _dir_lists_members(torch):
    keys = dir(layers(torch).Net())
    return [k for k in ("embed", "norm", "running_mean", "weight", "training", "_parameters",
                        "forward", "state_dict") if k in keys], keys == sorted(keys)


def _missing_forward(torch):
    torch.nn.Module()(1)


# ----- iteration: orders, prefixes, duplicates ---------------------------------------------
def _iteration_orders(torch):
    net = shared_net(torch)
    return (names(net.named_parameters()), names(net.named_parameters(prefix="model")),
            names(net.named_parameters(remove_duplicate=False)),
            names(net.named_parameters(recurse=False)), names(net.norm.named_buffers()),
            names(net.named_buffers(prefix="p", remove_duplicate=False)),
            names(net.named_children()), names(net.named_modules()),
            names(net.named_modules(prefix="root")),
            names(net.named_modules(remove_duplicate=False)),
            names(net.named_modules(memo={net.blocks})),
            len(list(net.parameters())), len(list(net.buffers(recurse=False))),
            len(list(net.modules())), len(list(net.children())))


def _lookup_paths(torch):
    net, found, errors = layers(torch).Net(), [], []
    calls = [("get_submodule", "blocks.1"), ("get_submodule", ""), ("get_parameter", "head.bias"),
             ("get_buffer", "norm.running_mean"), ("get_submodule", "blocks.5"),
             ("get_submodule", "norm.scale"), ("get_parameter", "norm.running_mean"),
             ("get_parameter", "head.nothing"), ("get_buffer", "norm.scale"),
             ("get_buffer", "x.y"), ("set_submodule", "blocks.0", torch.nn.Module()),
             ("set_submodule", "", torch.nn.Module()), ("set_submodule", "head", 1),
             ("set_submodule", "norm.scale", torch.nn.Module()),
             ("set_submodule", "new", torch.nn.Module(), True)]
    for method, *args in calls:
        try:
            found.append(repr(getattr(net, method)(*args)))
        except Exception as error:
            errors.append((type(error).__name__, str(error)))
    return found, errors


def _registration_hooks(torch):
    module_file, log = torch.nn.modules.module, []
    handles = [
        module_file.register_module_buffer_registration_hook(
            lambda m, name, value: log.append(("buffer", name)) or value * 2),
        module_file.register_module_module_registration_hook(
            lambda m, name, value: log.append(("module", name))),
        module_file.register_module_parameter_registration_hook(
            lambda m, name, value: log.append(("parameter", name)))]
    try:
        m = torch.nn.Module()
        m.register_buffer("b", torch.ones(1))
        m.sub = torch.nn.Module()
        m.p = torch.nn.Parameter(torch.ones(1))
        m.add_module("other", None)
    finally:
        for handle in handles:
            handle.remove()
    m.register_buffer("c", torch.ones(1))
    return log, m.b, m.c


# ----- modes, gradients, conversion -------------------------------------------------------
def _train_eval(torch):
    net = layers(torch).Net()
    flags = [net.eval() is net, [m.training for m in net.modules()]]
    net.blocks.train()
    flags.append([m.training for m in net.modules()])
    try:
        net.train("yes")
    except ValueError as error:
        flags.append(str(error))
    return flags


def _gradients(torch):
    net = layers(torch).Net()
    out = net(torch.ones(2, 3)).sum()
    out.backward()
    grads = [p.grad.clone() for p in net.parameters()]
    net.zero_grad(set_to_none=False)
    zeroed = [p.grad for p in net.parameters()]
    net.zero_grad()
    net.requires_grad_(False)
    return out, grads, zeroed, [p.grad for p in net.parameters()], \
        [p.requires_grad for p in net.parameters()]


def _conversions(torch):
    net = layers(torch).Net()
    weight = net.embed.weight
    net(torch.ones(1, 3)).sum().backward()
    net.double()
    kept = net.embed.weight is weight
    dtypes = [str(t.dtype) for t in net.state_dict().values()]
    grad_dtype = str(net.embed.weight.grad.dtype)
    net.to(torch.float16)
    half = [str(t.dtype) for t in net.state_dict().values()]
    net.to(torch.ones(1, dtype=torch.bfloat16))
    bf16 = [str(t.dtype) for t in net.state_dict().values()]
    net.to("cpu", torch.float32).float()
    back = [str(t.dtype) for t in net.state_dict().values()]
    return kept, dtypes, grad_dtype, half, bf16, back, net.cpu() is net, \
        str(net.type(torch.float64).norm.steps.dtype)


def _to_errors(torch):
    errors = []
    net = layers(torch).Affine(1, 1)
    for call in (lambda: net.to(torch.int32), lambda: net.to("cpu", torch.float64, False, True),
                 lambda: net.to("cpu", foo=1)):
        try:
            call()
        except Exception as error:
            errors.append((type(error).__name__, str(error)))
    return errors


def _apply_order(torch):
    seen = []
    layers(torch).Net().apply(lambda m: seen.append(type(m).__name__))
    return seen


# ----- printing ---------------------------------------------------------------------------
def _reprs(torch):
    net = shared_net(torch)
    net.blocks.add_module("none", None)

    class Multi(torch.nn.Module):
        def extra_repr(self):
            return "first\nsecond"

    class MultiWithChild(Multi):
        def __init__(self):
            super().__init__()
            self.child = Multi()
    return (repr(net), repr(torch.nn.Module()), repr(Multi()), repr(MultiWithChild()),
            repr(torch.nn.Parameter(torch.ones(2))),
            repr(torch.nn.Parameter(torch.arange(3), requires_grad=False)),
            repr(torch.nn.Parameter(torch.zeros(2, 2, dtype=torch.float64))),
            repr(torch.nn.Parameter()))


# ----- parameters and buffers --------------------------------------------------------------
def _parameter_semantics(torch):
    data = torch.ones(3)
    p = torch.nn.Parameter(data)
    with torch.no_grad():
        p.add_(1)
    result = p * 2
    detached = p.detach()
    return (data, type(result).__name__, type(detached).__name__, type(p.data).__name__,
            p.is_leaf, p.grad_fn, isinstance(p, torch.Tensor), isinstance(data, torch.nn.Parameter),
            type(torch.nn.Parameter(p)).__name__, torch.nn.Parameter(data, False).requires_grad)


def _parameter_of_integers(torch):
    torch.nn.Parameter(torch.arange(3))


def _buffer_semantics(torch):
    b = torch.nn.Buffer(torch.ones(2), persistent=False)
    m = torch.nn.Module()
    m.b = b
    m.c = torch.nn.Buffer(torch.zeros(1))
    return (type(b).__name__, isinstance(b, torch.nn.Buffer),
            isinstance(torch.ones(1), torch.nn.Buffer), b.persistent, list(m.state_dict()),
            names(m.named_buffers()), repr(torch.nn.Buffer()))


def _deep_copies(torch):
    net = shared_net(torch)
    clone = copy.deepcopy(net)
    p = torch.nn.Parameter(torch.ones(2))
    return (repr(clone), clone.tied is clone.head, clone.head.weight2 is clone.embed.weight,
            clone.embed.weight is net.embed.weight, clone.state_dict(), repr(copy.deepcopy(p)))


def _pickles(torch):
    # classes defined at module level of the library (local classes cannot be pickled)
    net = torch.nn.Sequential(torch.nn.ParameterList([torch.ones(2)]), torch.nn.ModuleDict())
    net.register_buffer("count", torch.tensor(3), persistent=False)
    copied = pickle.loads(pickle.dumps(net))
    p = pickle.loads(pickle.dumps(torch.nn.Parameter(torch.ones(2), requires_grad=False)))
    return repr(copied), copied.state_dict(), copied.count, repr(p), type(p).__name__


SCENARIOS = [value for name, value in sorted(globals().items())
             if name.startswith("_") and callable(value)]


# ----- seeded random registration scripts -------------------------------------------------
_NAMES = ["a", "b", "c", "weight", "training", "forward", "a.b", "", "0"]
_ACTIONS = {
    "parameter": lambda lib, m, name: setattr(m, name, lib.nn.Parameter(lib.ones(1))),
    "buffer": lambda lib, m, name: m.register_buffer(name, lib.zeros(1)),
    "non-persistent": lambda lib, m, name: m.register_buffer(name, lib.zeros(2), False),
    "Buffer": lambda lib, m, name: setattr(m, name, lib.nn.Buffer(lib.ones(3), persistent=False)),
    "module": lambda lib, m, name: setattr(m, name, lib.nn.Sequential(lib.nn.Module())),
    "plain": lambda lib, m, name: setattr(m, name, 3),
    "tensor": lambda lib, m, name: setattr(m, name, lib.ones(4)),
    "None": lambda lib, m, name: setattr(m, name, None),
    "delete": lambda lib, m, name: delattr(m, name),
    "register_parameter": lambda lib, m, name: m.register_parameter(name, None),
    "register_buffer": lambda lib, m, name: m.register_buffer(name, None),
    "add_module": lambda lib, m, name: m.add_module(name, lib.nn.Module()),
    "read": lambda lib, m, name: repr(getattr(m, name)),
}


def _random_script(seed: int, length: int = 30):
    """A scenario applying `length` random registrations, assignments and deletions to a
    module and its child, recording each outcome and the resulting tables."""
    rng = random.Random(seed)
    steps = [(rng.choice(sorted(_ACTIONS)), rng.choice(_NAMES), rng.random() < 0.5)
             for _ in range(length)]

    def scenario(torch):
        root = torch.nn.Module()
        root.child = torch.nn.Module()
        log = []
        for action, name, on_child in steps:
            try:
                log.append(_ACTIONS[action](torch, root.child if on_child else root, name))
            except Exception as error:
                log.append((type(error).__name__, str(error).replace("glasstorch.", "torch.")))
            log.append((names(root.named_parameters()), names(root.named_buffers()),
                        names(root.named_modules()), list(root.state_dict()), repr(root)))
        return log
    return scenario



@pytest.mark.parametrize("seed", range(25))
def test_random_registration_scripts_as_torch(seed):
    pytest.importorskip("torch")
    same_outcome(_random_script(seed))


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda f: f.__name__.strip("_"))
def test_same_as_torch(scenario):
    pytest.importorskip("torch")
    same_outcome(scenario)


# ----- without torch ---------------------------------------------------------------------
def test_registration_and_iteration():
    net = layers(gt).Net()
    assert [n for n, _ in net.named_parameters()] == [
        "embed.weight", "embed.bias", "norm.scale", "blocks.0.weight", "blocks.0.bias",
        "blocks.1.weight", "head.weight", "head.bias"]
    assert [n for n, _ in net.named_buffers()] == ["norm.running_mean", "norm.scratch",
                                                   "norm.steps"]
    assert list(net.state_dict()) == [
        "embed.weight", "embed.bias", "norm.scale", "norm.running_mean", "norm.steps",
        "blocks.0.weight", "blocks.0.bias", "blocks.1.weight", "head.weight", "head.bias"]
    assert net.state_dict()._metadata["norm"] == {"version": 2}


def test_parameter_shares_storage_and_results_are_tensors():
    data = gt.zeros(3)
    p = gt.nn.Parameter(data)
    with gt.no_grad():
        p.add_(2)
    assert data.tolist() == [2.0, 2.0, 2.0] and p.requires_grad and p.is_leaf
    assert type(p * 1) is gt.Tensor and isinstance(p, gt.Tensor)
    assert repr(p) == "Parameter containing:\ntensor([2., 2., 2.], requires_grad=True)"


def test_conversion_keeps_parameter_identity_and_converts_gradients():
    m = layers(gt).Affine(2, 2)
    weight = m.weight
    m(gt.ones(1, 2)).sum().backward()
    m.double()
    assert m.weight is weight and weight.dtype is gt.float64
    assert weight.grad.dtype is gt.float64


def test_assigning_a_tensor_to_a_parameter_name_is_refused():
    m = layers(gt).Affine(2, 2)
    with pytest.raises(TypeError, match=r"cannot assign 'torch.FloatTensor' as parameter "
                                        r"'weight' \(torch.nn.Parameter or None expected\)"):
        m.weight = gt.ones(2, 2)


def test_full_backward_hook_sees_and_replaces_input_gradient():
    m, seen = layers(gt).Affine(2, 1, bias=False), []

    def hook(module, grad_input, grad_output):
        seen.append((grad_input[0].tolist(), grad_output[0].tolist()))
        return (grad_input[0] * 0,)
    m.register_full_backward_hook(hook)
    x = gt.ones(1, 2, requires_grad=True)
    m(x).sum().backward()
    assert seen == [([[0.0, 0.125]], [[1.0]])] and x.grad.tolist() == [[0.0, 0.0]]


def test_copies_keep_sharing():
    net = layers(gt).Net()
    net.tied = net.head
    clone = copy.deepcopy(net)
    assert clone.tied is clone.head and clone.head.weight is not net.head.weight
    assert type(clone.head.weight) is gt.nn.Parameter
    restored = pickle.loads(pickle.dumps(gt.nn.Parameter(gt.ones(2), requires_grad=False)))
    assert type(restored) is gt.nn.Parameter and not restored.requires_grad


# Not built: DataParallel replication, JIT tracing.
_NOT_BUILT = {"_replicate_for_data_parallel", "_slow_forward",
              "_maybe_warn_non_full_backward_hook"}


@pytest.mark.parametrize("name", ["Module", "Sequential", "ModuleList", "ModuleDict",
                                  "ParameterList", "ParameterDict"])
def test_dir_lists_torchs_names(name):
    torch = pytest.importorskip("torch")
    # "___" names are patched onto torch's classes by its compiler once it has run (as
    # torch.cond does): not Module's own
    theirs = {n for n in dir(getattr(torch.nn, name)) if not n.startswith("___")} - _NOT_BUILT
    assert set(dir(getattr(gt.nn, name))) == theirs


# Messages as torch 2.13 words them (checked against torch by the scenarios above).
_REGISTRATION_ERRORS = [
    (lambda m: m.register_buffer("a.b", None), KeyError, 'buffer name can\'t contain "."'),
    (lambda m: m.register_buffer("", None), KeyError, 'buffer name can\'t be empty string ""'),
    (lambda m: m.register_buffer("weight", None), KeyError, "attribute 'weight' already exists"),
    (lambda m: m.register_buffer("x", [1]), TypeError,
     "cannot assign 'list' object to buffer 'x' (torch Tensor or None required)"),
    (lambda m: m.register_parameter("p", gt.ones(1)), TypeError,
     "cannot assign 'torch.FloatTensor' object to parameter 'p' (torch.nn.Parameter or None "
     "required)"),
    (lambda m: m.add_module("x", 3), TypeError, "int is not a Module subclass"),
    (lambda m: m.add_module("a.b", None), KeyError, 'module name can\'t contain ".", got: a.b'),
    (lambda m: setattr(m, "bias", 3), TypeError,
     "cannot assign 'int' as parameter 'bias' (torch.nn.Parameter or None expected)"),
]


@pytest.mark.parametrize("index", range(len(_REGISTRATION_ERRORS)))
def test_registration_errors_have_torchs_messages(index):
    call, kind, message = _REGISTRATION_ERRORS[index]
    with pytest.raises(kind) as caught:
        call(layers(gt).Affine(2, 2))
    assert type(caught.value) is kind
    text = caught.value.args[0]
    assert text == message


def test_nested_repr():
    net = layers(gt).Net()
    assert repr(net) == (
        "Net(\n  (embed): Affine(in_features=3, out_features=4)\n  (norm): Norm()\n"
        "  (blocks): Sequential(\n    (0): Affine(in_features=4, out_features=4)\n"
        "    (1): Affine(in_features=4, out_features=4)\n  )\n"
        "  (head): Affine(in_features=4, out_features=2)\n)")
