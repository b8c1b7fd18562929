"""torch._dynamo.exc: the compiler's exception types a program may catch."""


class TorchDynamoException(RuntimeError):
    """Base of the compiler's errors (a RuntimeError, as in torch)."""


class InvalidBackend(TorchDynamoException):
    """Raised by torch.compile for a backend name no registry holds."""

    def __init__(self, name: str) -> None:
        super().__init__(f"Invalid backend: {name!r}, see `torch._dynamo.list_backends()` "
                         "for available backends.")


class Unsupported(TorchDynamoException):
    """What torch raises for code its tracer cannot follow (fullgraph=True)."""


class BackendCompilerFailed(TorchDynamoException):
    """What torch raises when a backend fails on a captured graph."""
