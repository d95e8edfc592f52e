"""Diced Tomatoes, as Board Game Arena plays it: seed, grow and harvest dice tomatoes."""
