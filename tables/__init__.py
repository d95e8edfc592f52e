"""Live games ("tables"): lobbies, seats, moves, undo, bots, turn clocks, persistence.

The layer between the Discord cogs and the engine; it never imports discord.

Public API (stable; grown only compatibly):

    store = await Store.open("data/meeple.db")        # creates folder + file, migrates
    service = TableService(store, bot_delay=1.5)      # clock=time.time by default
    # retry_base=1.0, retry_cap=30.0: a failed bot move is retried after a capped backoff for
    # as long as the game is in play. Harnesses: clock_loop=False (clocks fire only through
    # run_due), idle_wait (wraps the waits of long-lived helpers such as the board keeper,
    # e.g. simcord's Env.external_wait) and new_seed (each started game's seed; 63 random
    # bits by default); all may also be set as attributes before start().
    # shards=ShardSet(count, ids) (tables/shards.py): a shard process; only the bot seats of
    # its shards' tables play here, and only the clocks of shards whose lease it holds fire.
    service.subscribe(on_change)                      # async (Update | Notice) -> None
    await service.start()                             # resume bots, start the clock loop
    ...
    await service.close()                             # stops tasks, closes the store

Lobby (each returns the Table after the change, or raises a TableError):
    create(game, guild_id, channel_id, host_id, host_name, options=None, *, timing=None)
    join(table_id, user_id, name)          leave(table_id, user_id)
    add_bot(table_id, by_user, policy=DEFAULT_LEVEL)  remove_bot(table_id, by_user, seat, name=None)
    remove_player(table_id, by_user, user_id)        (host only: frees another human's seat, bars a Join)
    let_back(table_id, by_user, user_id)             (host only: a removed player may Join again)
    set_options(table_id, by_user, options)          set_timing(table_id, by_user, timing)
    cancel(table_id, by_user, is_manager=False)
    check_start(table_id, by_user) -> Table          (would Start be accepted now?)
    start_game(table_id, by_user, *, thread_id=None) -> Update   (host only; named so because
                                      start() starts the service itself; the thread is
                                      recorded in the same write as the start)
Play (each returns an Update, also sent to every listener):
    act(table_id, user_id, version, action)  undo(table_id, user_id, version, seat=None)
    choose(table_id, user_id, version, seat, index)   (a click: option `index` of the seat's
                                      decision as a board built at `version` showed it; the
                                      move is checked once, here: Turns.checked's refusals)
    decision(table_id, user_id, version, seat=None) -> (Table, Prompt)   (a board step that
                                      plays no move, a group or a page: the same refusals)
    abandon(table_id, by_user, is_manager=False)
    reclaim(table_id, user_id) -> Table      (take one's seat back from a bot)
    hand_to_bot(table_id, seat, idle_since) -> Table  (a vote carried, tables/votes.py: a bot
                                      plays the due seat now, unless its player moved since)
    kick(table_id)                           (bots and standing answers move now if they can)
Messages: set_thread(table_id, id) -> Table (a change of the table), set_lobby_message(table_id, id)
The board ledger (the Discord side's, its own table `boards`, tables/store/boards.py; the cogs
    use it through the store): board(table_id) -> BoardRecord, save_board(record) (a post),
    board_later(record) (an edit: written with the table's next save), set_lobby_message,
    boards_behind(), boards_in_play(after, limit) (also on the service, read-only)
Queries: get(table_id), tables_in_channel(channel_id), table_for_thread(thread_id),
    tables_of_user(user_id), finished_in_guild(guild_id, offset=, limit=) -> (page, total),
    log(table_id) -> list[LoggedEvent], record(table_id) -> Record,
    actions(table_id) -> list[ActionRow] (the log with its events, replayed once packed)
Clocks: run_due(now=None) fires due reminders, timeouts and seat replacements (tests drive
    it with a fake clock); hold_pings(table_id, seats) holds the turn pings of players in
    quiet hours. pause(seconds) -> bool sleeps unless the service closes (False then);
    idle() waits until bots and listeners are done (tests).
Player settings: service.players (tables.players.Players: quiet hours, notice, standing answers).

Where it lives:
    service/     TableService, the facade over its parts (its docstring maps them): core.py (the
                 per-table lock and cache, `async with core.locked(id) as table`), lobby, turns,
                 seats, clocks, bots, delivery, board (the ledger above), queries
    store/       Store (the reads) over writes.py (the guarded save) over connection.py (SQLite,
                 transactions, migration); rows.py and packing.py encode the rows and the log;
                 postgres.py the same Store on PostgreSQL (open_store picks by MEEPLE_DB)
    models.py    Table, SeatInfo, Timing, Deadline, Update, Notice     errors.py  TableError and kin
    migrations.py  the schema steps       database.py  the file, its lock, what an error means
    players.py   player settings          waits.py   quiet hours, optional windows, standing answers
    paces.py     named sets of clocks     votes.py   votes to hand a long-due seat to a bot
    chores.py    clocks for after a game  clicks.py  the journal of acknowledged clicks
    results.py   result rows of finished games; ratings.py OpenSkill ratings; stats.py a player's record
    rebuild_ratings.py  the command that recomputes the ratings   clock.py  a clock tests can move

Rulings taken here:
- The host leaving a lobby hands it to the next seated human; with no human left the
  lobby is cancelled. Leaving a game in progress hands the seat to a bot (Notice REPLACED);
  the player may reclaim it, and acting with a button reclaims it too. When no active
  human is left (the last one left, or was replaced for absence) the game is abandoned
  rather than played out by bots alone.
- Seats keep the order players joined in; who starts is the game's business (its rules
  and seeded generator).
- A button built for an older version is accepted only if that seat's prompt has not
  changed since (SeatInfo.prompt_version), so in simultaneous phases another seat's move
  does not make your buttons stale, while a double click of your own is refused as
  StaleVersion (or GameNotRunning when the first click ended the game). Undo needs the
  exact current version.
- Clocks (Timing, per table, host-settable): a reminder 12 h after a seat must decide,
  then daily; after 24 h the prompt's default is taken if it has one (a prompt without a
  default just waits); a seat that has owed decisions for 3 days without acting itself
  goes to a bot. Moves taken by the timeout do not reset that absence clock; the
  player's own move (or reclaiming) does. While several clocks of a seat are due, the
  strongest goes first (replace, timeout, reminder) and a reminder overtaken by a move is
  dropped; after a long downtime one reminder is sent, not one per missed day.
- Listeners receive every change of a game in play (the caller's own move included), in
  order per table, from one delivery task per table (a slow table delays only itself);
  post boards from the listener, answer the interaction from the return value. Lobby
  changes are only returned.
- Bots never give up while their game is in play: a store failure or an unexpected error
  in a bot move is logged with the table id and retried after a capped backoff.
- The database is the truth: every change is one transaction guarded by the row's version
  and revision; the in-memory cache is updated only after a commit. Undo snapshots are
  kept only for moves that may still be taken back.
"""

from tables.errors import (
    AlreadySeated,
    BadTableOptions,
    GameNotRunning,
    IllegalMove,
    LobbyClosed,
    LobbyFull,
    NoSuchTable,
    NotAllowed,
    NotEnoughPlayers,
    NothingToUndo,
    NotHost,
    NotSeated,
    NotYourTurn,
    StaleVersion,
    StoreUnavailable,
    TableError,
    UnknownBot,
    UnknownGame,
)
from tables.models import (
    Deadline,
    DeadlineKind,
    LoggedEvent,
    Notice,
    NoticeKind,
    SeatInfo,
    Table,
    TableStatus,
    Timing,
    Update,
    UpdateKind,
)
from tables.service import IdleWait, Listener, TableService
from tables.store import Store, open_store

__all__ = [
    "AlreadySeated",
    "BadTableOptions",
    "Deadline",
    "DeadlineKind",
    "GameNotRunning",
    "IdleWait",
    "IllegalMove",
    "Listener",
    "LobbyClosed",
    "LobbyFull",
    "LoggedEvent",
    "NoSuchTable",
    "NotAllowed",
    "NotEnoughPlayers",
    "NotHost",
    "NotSeated",
    "NotYourTurn",
    "NothingToUndo",
    "Notice",
    "NoticeKind",
    "SeatInfo",
    "StaleVersion",
    "Store",
    "StoreUnavailable",
    "Table",
    "TableError",
    "TableService",
    "TableStatus",
    "Timing",
    "UnknownBot",
    "UnknownGame",
    "Update",
    "UpdateKind",
    "open_store",
]
