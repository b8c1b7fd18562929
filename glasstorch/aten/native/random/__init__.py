"""Random numbers: torch's CPU generator streams, in-place samplers, random factories."""
