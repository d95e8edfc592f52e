"""Meeple's rules engines: pure, deterministic, free of Discord, images and databases.

`engine.core` holds the contract every game follows (`Rules`); `engine.games` is the registry, one
`register` line per game naming its rules package (engine.<id>), renderer (renderers.<id>), turn UI
(cogs.games.<id>) and sample seats. The engine imports only its own part of an entry; renderers/
and cogs/ read the same entry for theirs, and every list of games iterates `engine.games.GAMES`.
"""
