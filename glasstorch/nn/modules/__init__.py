"""torch.nn's layers: `module.py` holds Module, each other file one family of layers."""
