"""Tests of the Diced Tomatoes engine."""
