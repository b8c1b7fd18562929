"""Neural-network operators: activations, softmax, losses, normalization, dropout,
embedding, padding, attention."""
