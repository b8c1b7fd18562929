"""torch.utils.model_zoo: the old name of `torch.hub.load_state_dict_from_url`."""
import importlib


def load_url(url: str, model_dir=None, map_location=None, progress: bool = True,
             check_hash: bool = False, file_name=None, weights_only: bool = False):
    """`torch.hub.load_state_dict_from_url` (see there): a checkpoint from `url`, read
    from the hub's cache directory."""
    try:
        hub = importlib.import_module("glasstorch.hub")
    except ModuleNotFoundError as error:
        raise NotImplementedError(f"torch.utils.model_zoo.load_url needs torch.hub: {error}") \
            from None
    return hub.load_state_dict_from_url(url, model_dir, map_location, progress, check_hash,
                                        file_name, weights_only)
