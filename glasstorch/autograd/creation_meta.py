"""How a view was made, as torch's `CreationMeta` records it (see Note [Views autograd
cannot rebase] in views.py). A tensor's `_creation_meta` is DEFAULT unless set. The
values made with a mode off (grad, inference) come last: `>= NO_GRAD_MODE` tests for them."""
DEFAULT, IN_CUSTOM_FUNCTION, MULTI_OUTPUT_NODE, NO_GRAD_MODE, INFERENCE_MODE = range(5)
