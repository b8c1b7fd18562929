"""torch.nn.backends: the home of the old THNN function backend, kept so that pickles
naming it still load."""
