"""torch.utils: helpers around the core (dispatch modes for now)."""
