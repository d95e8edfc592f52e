"""Meeple's rules engines: pure, deterministic, free of Discord, images and databases."""
