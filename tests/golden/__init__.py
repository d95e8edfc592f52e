"""Golden playthroughs: one recorded game per game and variant, replayed and diffed by a test.

Each file holds a game's seed, options and actions with the log lines each action produced and
the final scores, as text, so a change to a rule or a log line shows up as a readable diff.
Regenerate them all with `.venv/bin/python -m tests.golden` (then read the diff before committing).
"""
