"""Discord cogs: slash commands, lobby and turn components, board posting.

Every top-level module here is a discord.py extension (it has `async def setup(bot)`);
bot.py loads them all. The sub-packages hold what they share and are not extensions:

- `cogs.play`: the Games cog. `/play <game>`, `/game show|abandon|leave`, `/rules <game>`,
  and the handler of each kind of Meeple button and select (`Games.clicks`), each run by
  `answers.clicked`.
- `cogs.mygames`: `/games`, the asker's open tables in this server. `cogs.upkeep`: finished
  games' threads archived a day later, unstarted lobbies expired after a week, a game whose
  thread was deleted ended. `cogs.settings`: `/settings`, a player's time zone, quiet hours,
  how they are told of their move and their standing answer to optional choices.
- `cogs.platform`: the generic turn UI. `ids` (custom_ids: table, state version, choice),
  `layout` (a prompt's options as rows of buttons or selects within Discord's limits,
  first step "choose a die", second step "where it goes"), `views` (discord.ui items; one
  persistent DynamicItem class per kind of reference, `ActComponent`, `LobbyComponent`...,
  each matching only its kind's custom_ids and parsing its own reference),
  `presenter` (turns table updates into board messages in the game's thread: new message,
  edit or kept image), `board` (what a board message shows: caption, image, components),
  `board_messages` (the board messages and their ledger: post, edit, finish, mend, strip),
  `keeper` (background retries and the sweep of boards left behind), `notices` (the
  wording of reminders and other notices), `answers` (an interaction acknowledged at once
  and its failure answered privately, in the asker's language: `deferred`, `@answered`,
  `@clicked`), `lobby`, `text`,
  `away` (the "while you were away" summary of a turn ping), `gamelog` (`/game log`'s pages),
  `votes` (the vote on a reminder), `threads` (reopen, archive, a deleted thread),
  `notify` (turn pings and reminders by each player's settings: thread or DM, never in quiet
  hours), `pacing` (the lobby's pace and standing-answer selects, `/game info`).
- `cogs.games`: one mapping module per game, the one its registration names (engine.games).
  A module defines `UI`, a `GameUI` (labels,
  grouping, emoji, the question asked, the rules summary). Its `/play <game>` subcommand is
  built by `lobby.play_command` from the engine's option specs (those with a `short` name).
  Adding a game to Discord means adding such a module and the game's `register` line (a
  helper module's name starts with "_", e.g. `_troyes_words`, the wording of Troyes' dice,
  cards and events).
"""
