"""The declaration machine: one operator, one place, one registration path.

    @op("clone(Tensor self, *, MemoryFormat? memory_format=None) -> Tensor",
        meta=clone_meta, method=True, out=True)
    def clone(self, memory_format, *, out):      # the kernel: ndarrays in, writes `out`
        np.copyto(out, self)

From one declaration the registry makes the `OpOverload`s (`torch.ops.aten.clone`), the
in-place and out= overloads when asked (``inplace=True``, ``out=True``: their schemas
are derived from the functional one, and each overload's `SchemaKind` says which
variant its kernels are), a kernel for every dispatch key, and the Python bindings
(`torch.clone`, `Tensor.clone`), generated once by `binding.py`.

Every declaration goes through `declare`, with a *form* saying how the operator is
computed (Note [Declaration forms]); the decorators only choose the form:
  * `op`: a structured operator (`structured.Structured`): a meta rule checks the
    arguments and describes the result (`TensorMeta`: shape, dtype, strides); the
    kernel writes into results allocated from that description. Functional = allocate,
    then kernel; in place = the kernel writes `self`; out= = the kernel writes `out`.
  * `pointwise` (in `pointwise.py`): an `op` whose form is `Elementwise`, ATen's
    TensorIterator: the meta rule is promotion and broadcasting, the compute step
    converts, widens and chunks around a kernel that only does the math.
  * `view`: the result aliases `self`. The rule computes the new geometry (sizes,
    strides, offset) and that is all a view is: no kernel touches data.
  * `composite`: written in other operators (ATen's CompositeImplicitAutograd); it
    runs on every backend and autograd flows through the operators it calls.
  * factories are `op`s without tensor inputs: the `device` argument picks the backend.

Note [Declaration forms]
A form is the one thing that differs between kinds of operators: `setup(schema)` lets
it read the functional schema, `register(overload)` installs the overload's kernels,
one per dispatch key it serves (backend kernels are built per key from the backend
table, `backends.py`), `meta` is its meta rule (a view's geometry rule; None for a
composite), `number_positions` the Tensor arguments a Python number may stand for, and
`kind` names it ("op", "pointwise", "view", "composite"). Everything else (schemas of
the variants, the declaration record, overloads, bindings, autograd) is this module's,
the same for every form: JAX's `standard_primitive` with ATen's structured kernels.
"""
from __future__ import annotations

from ..c10.dispatch_key import MATH_BITS, DispatchKey, local_keys
from ..c10.tensor_impl import TensorBase, make_tensor, make_view
from .backends import BACKENDS
from .derivatives import check_formulas
from .dispatcher import OpOverload, get_overload
from .fast_paths import FastPath
from .schema import FunctionSchema, Record, SchemaKind, parse_schema
from .view_express import cached_geometry, view_express
from .structured import Structured, bump_written
# the names family files declare with, beside `op`, `view` and `composite`
from .structured import TensorMeta, check_castable, fast_path, prepare_out  # noqa: F401

CPU = DispatchKey.CPU
META = DispatchKey.Meta
AD_INPLACE_OR_VIEW = DispatchKey.ADInplaceOrView


class Declaration(Record):
    """Everything declared about one operator; printable, and read by the OpInfo tests.

    `kind` is the form's ('op', 'pointwise', 'view', 'composite'); `overloads` maps
    SchemaKind -> OpOverload; `numbers`: Python numbers accepted where the schema says
    Tensor; `python_module` ("linalg", "nn"): bound in torch.linalg, torch.nn.functional;
    `bind_out`: out= in the Python binding (else torch.ops.aten only); `form`: how it is
    computed (Note [Declaration forms]).
    """

    _fields = ("name", "kind", "overloads", "kernel", "meta", "grad", "method", "function",
               "python_name", "doc", "numbers", "python_module", "bind_out", "form")

    def __init__(self, name: str, kind: str, overloads: dict | None = None, kernel=None,
                 meta=None, grad: dict | None = None, method: bool = False,
                 function: bool = True, python_name: str | None = None,
                 doc: str | None = None, numbers: bool = False,
                 python_module: str | None = None, bind_out: bool = True,
                 form=None) -> None:
        vars(self).update(
            name=name, kind=kind, overloads={} if overloads is None else overloads,
            kernel=kernel, meta=meta, grad=grad, method=method, function=function,
            python_name=python_name, doc=doc, numbers=numbers, python_module=python_module,
            bind_out=bind_out, form=form)


DECLARATIONS: dict = {}      # qualified name of the functional overload -> Declaration


# ----------------------------------------------------------------------------------
# The one registration path
# ----------------------------------------------------------------------------------
def declare(schema: str, form, *, inplace: bool = False, out: bool = False,
            out_overload: str | None = None, out_names: tuple | None = None,
            kernel=None, doc_source=None, **record) -> OpOverload:
    """Declare an operator computed by `form`; returns its main `OpOverload`.

    Args:
        schema: the main schema: a functional one, or an in-place one for an operator
            that only exists in place (``copy_``, ``fill_``).
        form: how it is computed (Note [Declaration forms]).
        inplace, out: also declare the in-place (``name_``) and out= overloads, their
            schemas derived from the main one.
        out_overload, out_names: the out= overload's name and its out arguments' names
            when they are not the usual ones (``max.dim_max`` writes ``max``, ``max_values``).
        kernel, doc_source: recorded on the declaration, with the form's meta rule
            (the docstring is `doc_source`'s).
        record: the other `Declaration` fields (method, function, grad, python_name,
            python_module, bind_out, numbers).
    """
    parsed = parse_schema(schema)
    check_formulas(parsed, record.get("grad"), doc_source.__module__)  # before any declaring
    form.setup(parsed)
    decl = Declaration(parsed.qualified_name, form.kind, kernel=kernel, meta=form.meta,
                       doc=doc_source.__doc__, form=form, **record)
    decl.python_name = decl.python_name or parsed.name
    if decl.name in DECLARATIONS:
        raise RuntimeError(f"operator {decl.name} is declared twice")
    DECLARATIONS[decl.name] = decl
    main = _install(decl, parsed)
    if inplace:
        _install(decl, inplace_schema(parsed))
    if out:
        _install(decl, out_schema(parsed, out_overload, out_names))
    for overload in decl.overloads.values():
        form.register(overload)
        if form.number_positions:
            overload.accept_numbers(form.number_positions)
    _bind(decl)
    return main


def _install(decl: Declaration, parsed: FunctionSchema) -> OpOverload:
    overload = get_overload(parsed)
    if overload.declaration is not None:
        raise RuntimeError(f"aten::{parsed.qualified_name} is declared twice")
    overload.declaration = decl
    mutable = parsed.kind is SchemaKind.mutable     # writes a buffer: rrelu_with_noise's noise
    decl.overloads[SchemaKind.functional if mutable else parsed.kind] = overload
    return overload


# Told of every declaration once its overloads exist (autograd installs its kernels).
DECLARATION_SINKS: list = []


def _bind(decl: Declaration) -> None:
    from .binding import bind_declaration
    bind_declaration(decl)
    for sink in DECLARATION_SINKS:
        sink(decl)


def _label(runner, text: str, source) -> None:
    """Name a generated kernel after what it runs, for traces and `repr(op)`."""
    runner.__qualname__ = text
    runner.__module__ = source.__module__


# ----------------------------------------------------------------------------------
# The decorators: each chooses a form
# ----------------------------------------------------------------------------------
def op(schema: str, *, meta, inplace: bool = False, out: bool = False, method: bool = False,
       function: bool = True, grad: dict | None = None, python_name: str | None = None,
       out_overload: str | None = None, python_module: str | None = None,
       bind_out: bool = True, out_names: tuple | None = None, fast=None):
    """Declare a structured operator (see the module docstring).

    Args:
        schema: the schema, in ATen's syntax: a functional one, or an in-place one
            for an operator that only exists in place (``copy_``, ``fill_``).
        meta: the meta rule, ``meta(*args) -> TensorMeta | tuple[TensorMeta, ...]``.
        inplace: also declare ``name_`` writing `self`.
        out: also declare the out= overload (``name.out``).
        method: bind as a `Tensor` method too.
        function: bind as a ``torch.`` function.
        grad: derivative formulas keyed by input name (wired by the autograd engine).
        python_name: the Python name when it differs from the schema's.
        out_overload: the out= overload's name when not the usual one.
        python_module: bind the function in a namespace module (``"linalg"``) instead
            of ``torch.``, as for `composite`.
        bind_out: give the Python binding an ``out=`` keyword; False for the out=
            overloads torch's Python API leaves to ``torch.ops.aten`` (`trace.out`).
        out_names: the out= arguments' names when they are not the results' names
            (``max.dim_max`` writes ``max`` and ``max_values``).
        fast: the functional overload's fast path, ``fast(*args) -> Tensor | None``
            (None: it does not apply), marked with `fast_path` to say its case
            (Note [Fast paths] in fast_paths.py).
    """
    def declare_op(kernel):
        return declare(schema, Structured(meta, kernel, fast), inplace=inplace, out=out,
                       out_overload=out_overload, out_names=out_names, kernel=kernel,
                       doc_source=kernel, method=method, function=function,
                       grad=grad, python_name=python_name, python_module=python_module,
                       bind_out=bind_out)
    return declare_op


def view(schema: str, *, method: bool = True, function: bool = True,
         grad: dict | None = None, python_name: str | None = None, is_view: bool = True,
         cached: bool = False):
    """Declare a view operator: the decorated rule returns the result's geometry.

    The rule is called as ``rule(self, *args)`` with tensors (any device) and returns
    ``(size, stride, storage_offset)``, optionally with a fourth item, a new dtype;
    a rule of a multi-result view returns a list of those. With ``is_view=False`` the
    result shares storage and version counter but is not a view for autograd (it has
    no `_base`): `detach`. ``cached=True`` says that the geometry depends on `self`'s
    sizes and strides and the other arguments alone, the offset moved by `self`'s: it
    is then kept, and a single view gets an express entry (Note [View geometry cache]
    in view_express.py).
    """
    def declare_view(rule):
        return declare(schema, Alias(rule, is_view, cached), doc_source=rule,
                       method=method, function=function, grad=grad, python_name=python_name)
    return declare_view


def composite(schema: str, *, method: bool = False, function: bool = True,
              python_name: str | None = None, grad: dict | None = None, out: bool = False,
              python_module: str | None = None, bind_out: bool = True,
              out_overload: str | None = None):
    """Declare an operator written in other operators; it runs on every backend.

    Without `grad` it is ATen's CompositeImplicitAutograd: the same body under every
    key, so autograd, modes and backends all see the operators it decomposes into and
    never the composite itself. With `grad` (its own derivative formulas) it is
    CompositeExplicitAutograd: autograd and view/version bookkeeping happen for the
    composite as a whole, and its body runs below them, as a backend kernel does (so
    `_to_copy`'s internal `copy_` does not bump the fresh result's version).

    With ``out=True`` the out= overload (``name.out``) is declared too and runs the same
    body with the `out` tensor as a last argument (None for the functional call), as
    ATen pairs ``hstack`` with ``hstack_out``: the body hands `out` to the operators it
    calls (``cat.out``), which check, resize and write it.

    `python_module` binds the function in a namespace module instead of ``torch.``, as
    native_functions.yaml's ``python_module:`` does (see Note [Namespace modules]);
    ``bind_out=False`` keeps ``out=`` out of the Python binding, as for `op`;
    `out_overload` names the out= overload when not the usual one (``svd.U``). A body
    of several results gets their out= tensors as as many last arguments.
    """
    def declare_composite(body):
        return declare(schema, Decomposition(body, explicit=grad is not None), out=out,
                       out_overload=out_overload, kernel=body, doc_source=body, method=method, function=function,
                       grad=grad, python_name=python_name, python_module=python_module,
                       bind_out=bind_out)
    return declare_composite


# ----------------------------------------------------------------------------------
# Deriving the in-place and out= schemas from the functional one
# ----------------------------------------------------------------------------------
def inplace_schema(functional: FunctionSchema) -> FunctionSchema:
    """``name_`` writing `self` and returning it (SchemaKind.inplace)."""
    text = str(functional)
    head, _, tail = text.partition("(")
    name, dot, overload = head.partition(".")
    args_text, _, _ = tail.rpartition(") -> ")
    args_text = args_text.replace("Tensor self", "Tensor(a!) self", 1)
    return parse_schema(f"{name}_{dot}{overload}({args_text}) -> Tensor(a!)")


def out_schema(functional: FunctionSchema, overload_name: str | None,
               out_names: tuple | None = None) -> FunctionSchema:
    """``name.out`` writing keyword-only out= tensors and returning them (SchemaKind.out)."""
    if overload_name is None:
        base = functional.overload_name
        overload_name = "out" if base in ("", "Tensor", "default") else f"{base}_out"
    returns = functional.returns
    letters = "abcdefgh"
    if len(returns) == 1:
        out_args = [f"Tensor(a!) {out_names[0] if out_names else 'out'}"]
        rets = "Tensor(a!)"
    else:
        names = [r.name or f"out{i}" for i, r in enumerate(returns)]
        out_args = [f"Tensor({letters[i]}!) {n}" for i, n in enumerate(out_names or names)]
        rets = "(" + ", ".join(f"Tensor({letters[i]}!) {n}" for i, n in enumerate(names)) + ")"
    args = [str(a) for a in functional.arguments if not a.kwarg_only]
    kwargs = [str(a) for a in functional.arguments if a.kwarg_only]
    star = ["*"] + kwargs + out_args
    return parse_schema(f"{functional.name}.{overload_name}({', '.join(args + star)}) -> {rets}")


# ----------------------------------------------------------------------------------
# Composites
# ----------------------------------------------------------------------------------
_ABOVE_BACKEND = int(DispatchKey.ForwardAD | DispatchKey.Autograd | DispatchKey.ADInplaceOrView)


class Decomposition:
    """The form of a composite: a body written in other operators."""

    kind = "composite"
    meta = None                          # the operators it calls have theirs
    number_positions = ()

    def __init__(self, body, explicit: bool) -> None:
        self.body = body
        self.explicit = explicit
        self.meta_rules: dict = {}       # key -> its own body (an explicit composite's)
        self.rules_per_key = explicit    # an implicit one runs as written on every key

    def setup(self, schema: FunctionSchema) -> None:
        pass

    def register(self, overload: OpOverload) -> None:
        """Implicit: the body under every key. Explicit: under the backends only, run
        below autograd and bookkeeping, whose version bumps are its own."""
        run_composite = _composite_runner(self.body, self.explicit)
        for key in ((backend.key for backend in BACKENDS) if self.explicit else DispatchKey):
            overload.register(key, run_composite)
        if self.explicit and overload.written_args:
            overload.register(AD_INPLACE_OR_VIEW, bump_written)

    def register_key(self, overload: OpOverload, backend) -> None:
        overload.register(backend.key, _composite_runner(self.meta_rules[backend.key], True))


def _composite_runner(body, explicit: bool):
    """The kernel running a composite's body (below autograd when `explicit`)."""
    def run_composite(op, keyset, args):
        if not explicit:
            return body(*args)
        included, excluded = local_keys.included, local_keys.excluded
        local_keys.set(included, excluded | _ABOVE_BACKEND)
        try:
            return body(*args)
        finally:
            local_keys.set(included, excluded)
    kind = "explicit composite: runs below autograd" if explicit else "composite"
    _label(run_composite, f"{body.__name__} ({kind}, in the operators it is written in)", body)
    return run_composite


# ----------------------------------------------------------------------------------
# Views
# ----------------------------------------------------------------------------------
class Alias:
    """The form of a view: a rule giving the result's geometry over `self`'s storage."""

    kind = "view"
    number_positions = ()
    rules_per_key = True

    def __init__(self, rule, is_view: bool, cached: bool = False) -> None:
        self.meta = rule                 # a view's rule is its meta rule: geometry only
        self.is_view = is_view
        self.cached = cached
        self.meta_rules: dict = {}       # key -> its own geometry rule

    def setup(self, schema: FunctionSchema) -> None:
        pass

    def register(self, overload: OpOverload) -> None:
        """ADInplaceOrView links the result; every backend makes the alias (metadata
        only); a fused fast path does both in one call."""
        rule = self.meta
        overload.register(AD_INPLACE_OR_VIEW,
                          _view_bookkeeping if self.is_view else _share_version)
        alias = _make_alias(rule)
        geometry = cached_geometry(rule) if self.cached else rule
        single = not overload._schema.returns[0].type.is_list
        fast = FastPath(_fast_view(geometry, self.is_view),
                        f"{rule.__name__} (fast path: the view and its bookkeeping in one "
                        f"step)", rule.__module__, fused=True, always=True,
                        express=view_express(geometry, _note_view)
                        if self.cached and single else None)
        for backend in BACKENDS:
            overload.register(backend.key, alias)
            overload.register_fast_path(backend.key, fast)

    def register_key(self, overload: OpOverload, backend) -> None:
        overload.register(backend.key, _make_alias(self.meta_rules[backend.key]))


def _make_alias(rule):
    """The backend part of a view: new tensors over `self`'s storage, geometry from `rule`."""
    def make_alias(op, keyset, args):
        self = args[0]
        geometry = rule(*args)
        if type(geometry) is list:
            return [_alias(self, g) for g in geometry]
        return _alias(self, geometry)
    _label(make_alias, f"{rule.__name__} (view: new sizes/strides over the same storage)", rule)
    return make_alias


def _alias(self: TensorBase, geometry: tuple) -> TensorBase:
    dtype = geometry[3] if len(geometry) == 4 else self._dtype
    alias = make_tensor(self._storage, geometry[0], geometry[1], geometry[2], dtype)
    alias._keys |= self._keys & MATH_BITS            # a view keeps its math bits
    return alias


def _view_bookkeeping(op: OpOverload, keyset: int, args: tuple):
    """ADInplaceOrView for views: results share `self`'s version counter and base."""
    result = op.redispatch(keyset, args)
    self = args[0]
    base = self._base if self._base is not None else self
    if type(result) is list:
        for r in result:
            r._base = base
            r._vc = self._version_counter()
        note_view_creation(self, result, True)
    else:
        result._base = base
        result._vc = self._version_counter()
        note_view_creation(self, [result], False)
    return result


def _no_notes(source, views: list, multi: bool) -> None:
    """Until autograd installs its own (autograd/views.py `note_views`): nothing."""


# How autograd records the way views were made (torch's CreationMeta): set by the
# autograd package, as c10 does not know it.
note_view_creation = _no_notes


def _fast_view(rule, is_view: bool):
    """ADInplaceOrView + backend of a view in one function (a fused fast path)."""
    def view_fast_path(op, keyset, args):
        self = args[0]
        base = (self._base if self._base is not None else self) if is_view else None
        geometry = rule(*args)
        if type(geometry) is list:
            results = [make_view(self, g, base) for g in geometry]
            note_view_creation(self, results, True)
            return results
        result = make_view(self, geometry, base)
        if is_view and (self._creation_meta or not local_keys.plain):   # grad mode off, ...
            note_view_creation(self, [result], False)
        return result
    return view_fast_path


def _note_view(source: TensorBase, result: TensorBase) -> None:
    """Note how a single view was made (for the express entries of views)."""
    note_view_creation(source, [result], False)


def _share_version(op: OpOverload, keyset: int, args: tuple):
    """ADInplaceOrView for aliases that are not views: only the version counter is shared."""
    result = op.redispatch(keyset, args)
    result._vc = args[0]._version_counter()
    return result
