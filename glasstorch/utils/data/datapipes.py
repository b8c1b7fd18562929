"""torch.utils.data.datapipes: part of torch's DataPipes, which glasstorch does not implement.

The module imports (torch.utils.data names it), and each name asked of it is refused.
"""


def __getattr__(name: str):
    raise AttributeError(f"glasstorch does not implement torch.utils.data.datapipes.{name} yet "
                         f"(DataPipes are not part of glasstorch)")
