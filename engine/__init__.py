"""Meeple's rules engines: pure, deterministic, free of Discord, images and databases.

`engine.core` holds the contract every game follows (`Rules`); `engine.games` is the registry, one
`register` line per game naming its rules package (engine.<id>), renderer (renderers.<id>), turn UI
(cogs.games.<id>) and sample seats. The engine imports only its own part of an entry; renderers/
and cogs/ read the same entry for theirs, and every list of games iterates `engine.games.GAMES`.
`engine.words` is the language layer: every word a game says goes through a `Words`.

Every game package has the same skeleton, the same module for the same job (`SKELETON`; a test
holds each registered package to it):

- `__init__.py`: exports `RULES`, the rules object the registry loads;
- `rules.py`: the `Rules` subclass (setup, prompts, play, views, outcome) and `RULES`;
- `state.py`: the game state, plain data;
- `options.py`: `OPTION_SPECS`, the table options a host sets (labels and help in English, `N_`);
- `text.py`: every word the engine says, through a `Words` (`describe(event, names, words=...)`:
  the log line of an event), never read by the rules;
- `bots.py`: the bot policies (`easy`, `normal`); `hard.py` where the hard level is its own search.

Anything else is the game's own (tomatoes' `karma.py`, troyes' `data/` and `cards.py`), named for
what it holds.
"""

SKELETON: tuple[str, ...] = ("__init__", "rules", "state", "options", "text", "bots")
"""The modules every game package has, each for the same job in every game."""
