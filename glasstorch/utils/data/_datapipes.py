"""The DataPipes names torch.utils.data exports, which glasstorch does not implement.

torch's DataPipes (``torch.utils.data.datapipes``) are a separate, deprecated library
of composable iterators. Their top-level names exist here so that a program naming
them imports, and refuse clearly when used: a class when instantiated (subclassing is
allowed, so that class definitions still import), a function or decorator when called.
"""

_MESSAGE = ("glasstorch does not implement torch.utils.data.{} yet "
            "(DataPipes, torch.utils.data.datapipes, are not part of glasstorch)")


def _refuse(name: str):
    raise NotImplementedError(_MESSAGE.format(name))


class _Refusing:
    """A class that exists to be named or subclassed, and refuses to make instances."""

    def __new__(cls, *args, **kwargs):
        _refuse(cls._torch_name)


def _refusing_class(name: str) -> type:
    return type(name, (_Refusing,), {"_torch_name": name, "__module__": __name__,
                                      "__doc__": f"Not implemented: {_MESSAGE.format(name)}"})


def _refusing_function(name: str):
    def refuse(*args, **kwargs):
        _refuse(name)
    refuse.__name__ = refuse.__qualname__ = name
    refuse.__doc__ = f"Not implemented: {_MESSAGE.format(name)}"
    return refuse


DataChunk = _refusing_class("DataChunk")
DFIterDataPipe = _refusing_class("DFIterDataPipe")
IterDataPipe = _refusing_class("IterDataPipe")
MapDataPipe = _refusing_class("MapDataPipe")
functional_datapipe = _refusing_class("functional_datapipe")
guaranteed_datapipes_determinism = _refusing_class("guaranteed_datapipes_determinism")
non_deterministic = _refusing_class("non_deterministic")
runtime_validation_disabled = _refusing_class("runtime_validation_disabled")
argument_validation = _refusing_function("argument_validation")
runtime_validation = _refusing_function("runtime_validation")
