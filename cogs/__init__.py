"""Discord cogs: slash commands, lobby and turn components, board posting.

Every top-level module here is a discord.py extension (it has `async def setup(bot)`).
The sub-packages hold what they share: `cogs.platform` (the generic turn UI) and
`cogs.games` (one small mapping module per game).
"""
