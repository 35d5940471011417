"""The pure rules engine: standard library only, deterministic given a ``random.Random``."""
