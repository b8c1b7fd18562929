"""torch.nn.backends.thnn: a name old pickles refer to; nothing uses it otherwise."""


def _get_thnn_function_backend() -> None:
    """The THNN backend old pickles ask for: there is none."""
    return None
