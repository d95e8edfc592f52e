"""Buttons: push-your-luck dice, a 6x6 board per player, stars and lines of five."""
