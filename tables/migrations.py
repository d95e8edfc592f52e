"""The database schema as numbered steps: step i brings the schema number from i to i + 1.

Only ever append a step; a database written by a newer Meeple (a higher schema number) is refused.
SQLite keeps the number as PRAGMA user_version, PostgreSQL in the table `meeple_schema`. The
steps are written for SQLite and run on PostgreSQL too, their types translated
(tables/store/dialect.py); a step using functions only SQLite has gives its PostgreSQL text
in POSTGRES_STEPS. Write a new step in SQL both take.
"""

from __future__ import annotations

MIGRATIONS: tuple[str, ...] = (
    # 1: tables, seats and the action log.
    """
    CREATE TABLE tables (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        game TEXT NOT NULL,
        guild_id INTEGER NOT NULL,
        channel_id INTEGER NOT NULL,
        thread_id INTEGER,
        lobby_message_id INTEGER,
        board_message_id INTEGER,
        host_id INTEGER NOT NULL,
        status TEXT NOT NULL,
        options TEXT NOT NULL,
        seed INTEGER,
        state TEXT,
        version INTEGER NOT NULL DEFAULT 0,
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL
    );
    CREATE INDEX tables_by_channel ON tables (channel_id, status);
    CREATE INDEX tables_by_thread ON tables (thread_id);
    CREATE TABLE seats (
        table_id INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        user_id INTEGER,
        bot TEXT,
        name TEXT NOT NULL,
        replaced INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (table_id, seat)
    );
    CREATE INDEX seats_by_user ON seats (user_id);
    CREATE TABLE actions (
        table_id INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        version INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        action TEXT NOT NULL,
        events TEXT NOT NULL,
        created_at REAL NOT NULL,
        PRIMARY KEY (table_id, seq)
    );
    """,
    # 2: turn clocks, undo snapshots and a write counter against lost updates.
    """
    ALTER TABLE tables ADD COLUMN timing TEXT NOT NULL DEFAULT '{}';
    ALTER TABLE tables ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE seats ADD COLUMN idle_since REAL;
    ALTER TABLE seats ADD COLUMN prompt_version INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE actions ADD COLUMN source TEXT NOT NULL DEFAULT 'human';
    ALTER TABLE actions ADD COLUMN before TEXT;
    ALTER TABLE actions ADD COLUMN undone INTEGER NOT NULL DEFAULT 0;
    CREATE TABLE deadlines (
        table_id INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        kind TEXT NOT NULL,
        due_at REAL NOT NULL,
        count INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (table_id, seat, kind)
    );
    CREATE INDEX deadlines_by_due ON deadlines (due_at);
    """,
    # 3: the shown board as state (an outbox): what the board message shows, a post in flight,
    # and earlier boards whose buttons are still to strip. Boards of existing tables count as
    # shown, except a game in play that never recorded one.
    """
    ALTER TABLE tables ADD COLUMN board_version INTEGER;
    ALTER TABLE tables ADD COLUMN board_movers TEXT NOT NULL DEFAULT '[]';
    ALTER TABLE tables ADD COLUMN board_posting INTEGER;
    ALTER TABLE tables ADD COLUMN board_retired TEXT NOT NULL DEFAULT '[]';
    UPDATE tables SET board_version = version WHERE board_message_id IS NOT NULL OR status <> 'playing';
    """,
    # 4: Buttons games begun before "one black die per exit" became the rule (the seed's) keep
    # the two dice per exit of 2-player games they were started with, so their records replay.
    """
    UPDATE tables SET options = json_set(options, '$.two_dice_2p', json('true'))
        WHERE game = 'buttons' AND status <> 'lobby' AND json_type(options, '$.two_dice_2p') IS NULL;
    UPDATE tables SET state = json_set(state, '$.two_dice_2p', json('true'))
        WHERE game = 'buttons' AND state IS NOT NULL AND json_type(state, '$.two_dice_2p') IS NULL;
    UPDATE actions SET before = json_set(before, '$.two_dice_2p', json('true'))
        WHERE before IS NOT NULL AND json_type(before, '$.two_dice_2p') IS NULL
        AND table_id IN (SELECT id FROM tables WHERE game = 'buttons');
    """,
    # 5: the secret salt hashed with each game's seed into the commitment its first board shows.
    # Games begun before get one now: their commitment appears from the next board on.
    """
    CREATE TABLE IF NOT EXISTS seed_salts (
        table_id INTEGER PRIMARY KEY REFERENCES tables (id) ON DELETE CASCADE,
        salt TEXT NOT NULL
    );
    INSERT OR IGNORE INTO seed_salts (table_id, salt)
        SELECT id, lower(hex(randomblob(32))) FROM tables WHERE seed IS NOT NULL;
    """,
    # 6: votes to hand a long-due seat to a bot (tables/votes.py), and clocks for chores done
    # after a game, such as archiving its thread a day after the final scores (tables/chores.py).
    """
    CREATE TABLE IF NOT EXISTS seat_votes (
        table_id INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        voter_id INTEGER NOT NULL,
        idle_since REAL NOT NULL,
        created_at REAL NOT NULL,
        PRIMARY KEY (table_id, seat, voter_id)
    );
    CREATE TABLE IF NOT EXISTS table_chores (
        table_id INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
        kind TEXT NOT NULL,
        due_at REAL NOT NULL,
        PRIMARY KEY (table_id, kind)
    );
    CREATE INDEX IF NOT EXISTS table_chores_by_due ON table_chores (due_at);
    """,
    # 7: results and ratings (tables/results.py, tables/ratings.py): when each game started, one
    # result row per seat of a finished game, each server's current ratings per game and their
    # history. Finished games of older databases get their rows after migrating (ratings.backfill).
    """
    ALTER TABLE tables ADD COLUMN started_at REAL;
    UPDATE tables SET started_at = COALESCE(
        (SELECT MIN(created_at) FROM actions WHERE actions.table_id = tables.id), created_at)
        WHERE status IN ('playing', 'finished', 'abandoned');
    CREATE TABLE results (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        table_id INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        game TEXT NOT NULL,
        guild_id INTEGER NOT NULL,
        user_id INTEGER,
        bot TEXT,
        replaced INTEGER NOT NULL DEFAULT 0,
        name TEXT NOT NULL,
        rank INTEGER NOT NULL,
        score INTEGER NOT NULL,
        breakdown TEXT NOT NULL,
        options TEXT NOT NULL,
        players INTEGER NOT NULL,
        started_at REAL NOT NULL,
        ended_at REAL NOT NULL,
        moves INTEGER NOT NULL,
        UNIQUE (table_id, seat)
    );
    CREATE INDEX results_by_player ON results (guild_id, game, user_id);
    CREATE INDEX results_by_guild ON results (guild_id, ended_at);
    CREATE TABLE ratings (
        guild_id INTEGER NOT NULL,
        game TEXT NOT NULL,
        user_id INTEGER NOT NULL,
        mu REAL NOT NULL,
        sigma REAL NOT NULL,
        games INTEGER NOT NULL,
        bot_games INTEGER NOT NULL,
        PRIMARY KEY (guild_id, game, user_id)
    );
    CREATE TABLE rating_history (
        table_id INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        guild_id INTEGER NOT NULL,
        game TEXT NOT NULL,
        user_id INTEGER NOT NULL,
        mu REAL NOT NULL,
        sigma REAL NOT NULL,
        vs_bots INTEGER NOT NULL,
        ended_at REAL NOT NULL,
        PRIMARY KEY (table_id, seat)
    );
    CREATE INDEX rating_history_by_player ON rating_history (guild_id, game, user_id);
    """,
    # 8: undo snapshots apart from the permanent log (deleted once past their use), and a log
    # rewritten without them, its pages full. A game that ended keeps its moves packed in one
    # row (packed_logs.moves: JSON, or zlib-compressed JSON as later games are written), not
    # their events: replaying the moves from the seed gives them again. Games waiting on a
    # bot are marked, so start-up loads only those (games in play with a bot seat, at first).
    """
    CREATE TABLE undo_states (
        table_id INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        state TEXT NOT NULL,
        PRIMARY KEY (table_id, seq)
    );
    INSERT INTO undo_states (table_id, seq, state)
        SELECT table_id, seq, before FROM actions
        WHERE before IS NOT NULL AND undone = 0
        AND table_id IN (SELECT id FROM tables WHERE status = 'playing');
    CREATE TABLE packed_logs (
        table_id INTEGER PRIMARY KEY REFERENCES tables (id) ON DELETE CASCADE,
        moves BLOB NOT NULL
    );
    INSERT INTO packed_logs (table_id, moves)
        SELECT table_id,
            json_group_array(json_array(seq, version, seat, json(action), source, created_at, undone))
        FROM (
            SELECT * FROM actions
            WHERE table_id IN (SELECT id FROM tables WHERE status NOT IN ('lobby', 'playing'))
            ORDER BY table_id, seq
        )
        GROUP BY table_id;
    CREATE TABLE actions_log (
        table_id INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        version INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        action TEXT NOT NULL,
        events TEXT NOT NULL,
        created_at REAL NOT NULL,
        source TEXT NOT NULL DEFAULT 'human',
        undone INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (table_id, seq)
    );
    INSERT INTO actions_log (table_id, seq, version, seat, action, events, created_at, source, undone)
        SELECT table_id, seq, version, seat, action, events, created_at, source, undone FROM actions
        WHERE table_id IN (SELECT id FROM tables WHERE status IN ('lobby', 'playing'))
        ORDER BY table_id, seq;
    DROP TABLE actions;
    ALTER TABLE actions_log RENAME TO actions;
    ALTER TABLE tables ADD COLUMN bot_to_move INTEGER NOT NULL DEFAULT 0;
    UPDATE tables SET bot_to_move = 1
        WHERE status = 'playing' AND id IN (SELECT table_id FROM seats WHERE bot IS NOT NULL);
    CREATE INDEX tables_with_bot_to_move ON tables (id) WHERE bot_to_move = 1;
    """,
    # 9: player settings (time zone, quiet hours, how to be told, standing answer to optional
    # decisions) and standing answers set for one table (tables.players).
    """
    CREATE TABLE IF NOT EXISTS players (
        user_id INTEGER PRIMARY KEY,
        time_zone TEXT NOT NULL DEFAULT 'UTC',
        quiet_start INTEGER,
        quiet_end INTEGER,
        notify TEXT NOT NULL DEFAULT 'thread',
        standing TEXT NOT NULL DEFAULT 'ask',
        dm_failed INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE IF NOT EXISTS seat_answers (
        table_id INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
        user_id INTEGER NOT NULL,
        answer TEXT NOT NULL,
        PRIMARY KEY (table_id, user_id)
    );
    """,
    # 10: `bot_to_move` also marks games waiting on an optional decision that a standing answer
    # may settle; rows saved before say only "a bot", so start-up looks at every game in play once.
    """
    UPDATE tables SET bot_to_move = 1 WHERE status = 'playing';
    """,
    # 11: Diced Tomatoes games begun before karma could be spent at the end of the turn (karma
    # earned for passed dice) keep the turn ending as the dice are passed, so their records
    # replay (options, snapshots and undo snapshots).
    """
    UPDATE tables SET options = json_set(options, '$.end_step_karma', json('false'))
        WHERE game = 'tomatoes' AND status <> 'lobby' AND json_type(options, '$.end_step_karma') IS NULL;
    UPDATE tables SET state = json_set(state, '$.options.end_step_karma', json('false'))
        WHERE game = 'tomatoes' AND state IS NOT NULL
        AND json_type(state, '$.options.end_step_karma') IS NULL;
    UPDATE undo_states SET state = json_set(state, '$.options.end_step_karma', json('false'))
        WHERE json_type(state, '$.options.end_step_karma') IS NULL
        AND table_id IN (SELECT id FROM tables WHERE game = 'tomatoes');
    """,
    # 12: the people a lobby's host removed: they may not Join that table again until let back.
    """
    CREATE TABLE IF NOT EXISTS barred (
        table_id INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
        user_id INTEGER NOT NULL,
        name TEXT NOT NULL,
        PRIMARY KEY (table_id, user_id)
    );
    """,
    # 13: the journal of acknowledged clicks not yet done (tables/clicks.py): a row per click,
    # deleted with the move it stores or after its answer; a restart answers what is left.
    """
    CREATE TABLE IF NOT EXISTS pending_clicks (
        id INTEGER PRIMARY KEY,
        application_id INTEGER NOT NULL,
        token TEXT NOT NULL,
        table_id INTEGER,
        move INTEGER NOT NULL,
        created_at REAL NOT NULL
    );
    """,
    # 14: languages (engine.words): the one a table speaks in its public posts and boards, chosen at
    # /play; and the one a player chose for their private answers (NULL: their Discord client's).
    """
    ALTER TABLE tables ADD COLUMN language TEXT NOT NULL DEFAULT 'en';
    ALTER TABLE players ADD COLUMN language TEXT;
    """,
    # 15: the board ledger in its own table, owned by the Discord side: the lobby and board
    # messages, the version and movers the board shows, a post in flight, boards whose buttons
    # are still to strip. The columns move out of `tables` (portable SQL: SQLite and PostgreSQL).
    """
    CREATE TABLE boards (
        table_id INTEGER PRIMARY KEY REFERENCES tables (id) ON DELETE CASCADE,
        lobby_message_id INTEGER,
        message_id INTEGER,
        version INTEGER,
        movers TEXT NOT NULL DEFAULT '[]',
        posting INTEGER,
        retired TEXT NOT NULL DEFAULT '[]'
    );
    INSERT INTO boards (table_id, lobby_message_id, message_id, version, movers, posting, retired)
        SELECT id, lobby_message_id, board_message_id, board_version, board_movers, board_posting,
            board_retired FROM tables;
    ALTER TABLE tables DROP COLUMN lobby_message_id;
    ALTER TABLE tables DROP COLUMN board_message_id;
    ALTER TABLE tables DROP COLUMN board_version;
    ALTER TABLE tables DROP COLUMN board_movers;
    ALTER TABLE tables DROP COLUMN board_posting;
    ALTER TABLE tables DROP COLUMN board_retired;
    """,
    # 16: clock leases (tables/shards.py): which bot process fires each shard's turn clocks, until
    # when; the shard's own process asks a lease back with `wanted_by`. Portable SQL (no SQLite-only
    # syntax): the same step makes the table on PostgreSQL.
    """
    CREATE TABLE IF NOT EXISTS clock_leases (
        shard INTEGER PRIMARY KEY,
        holder TEXT NOT NULL,
        expires_at REAL NOT NULL,
        wanted_by TEXT,
        generation INTEGER NOT NULL DEFAULT 0
    );
    """,
    # 17: the server a journalled click came from, so that a restarting shard process answers only
    # the clicks its own shards received (a click with no table: a leaderboard page). Portable SQL.
    """
    ALTER TABLE pending_clicks ADD COLUMN guild_id INTEGER;
    """,
    # 18: the language of a journalled click's answer after a restart: that of the clicker's private
    # answers (/settings language, else their Discord client's). Rows journalled before stay NULL and
    # are answered in English. Portable SQL.
    """
    ALTER TABLE pending_clicks ADD COLUMN language TEXT;
    """,
    # 19: the journal keeps slash commands too (cogs/platform/clicks.py): a command's row names it, as
    # its user's client shows it, for the answer a restart owes; NULL for a component click. Portable SQL.
    """
    ALTER TABLE pending_clicks ADD COLUMN command TEXT;
    """,
)
"""Schema steps; step i brings PRAGMA user_version from i to i + 1. Only ever append."""

POSTGRES_STEPS: dict[int, str] = {
    # Steps 4, 5, 8 and 11 rewrite rows of games older Meeples wrote, with SQLite's JSON and
    # blob functions. A PostgreSQL database is only ever made at a later schema (its tables are
    # empty when these run), but their rewrites are given in its own functions all the same,
    # so each step means one thing on both.
    3: """
    UPDATE tables SET options = jsonb_set(options::jsonb, '{two_dice_2p}', 'true')::text
        WHERE game = 'buttons' AND status <> 'lobby' AND options::jsonb -> 'two_dice_2p' IS NULL;
    UPDATE tables SET state = jsonb_set(state::jsonb, '{two_dice_2p}', 'true')::text
        WHERE game = 'buttons' AND state IS NOT NULL AND state::jsonb -> 'two_dice_2p' IS NULL;
    UPDATE actions SET before = jsonb_set(before::jsonb, '{two_dice_2p}', 'true')::text
        WHERE before IS NOT NULL AND before::jsonb -> 'two_dice_2p' IS NULL
        AND table_id IN (SELECT id FROM tables WHERE game = 'buttons');
    """,
    4: """
    CREATE TABLE IF NOT EXISTS seed_salts (
        table_id INTEGER PRIMARY KEY REFERENCES tables (id) ON DELETE CASCADE,
        salt TEXT NOT NULL
    );
    INSERT INTO seed_salts (table_id, salt)
        SELECT id, replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', '')
        FROM tables WHERE seed IS NOT NULL
        ON CONFLICT DO NOTHING;
    """,
    # 8: as SQLite's, but a finished game's moves are packed by Python (zlib) in bytea, so the
    # earlier games' JSON logs are packed by the same statement SQLite's step uses, written
    # uncompressed: tables/store/packing.py reads both (a bytea that is not zlib is plain JSON).
    7: MIGRATIONS[7]
    .replace(
        "json_group_array(json_array(seq, version, seat, json(action), source, created_at, undone))",
        "convert_to(json_agg(json_build_array(seq, version, seat, action::json, source, created_at, undone)"
        " ORDER BY seq)::text, 'UTF8')",
    )
    .replace(")\n        GROUP BY table_id;", ") AS older\n        GROUP BY table_id;"),
    10: """
    UPDATE tables SET options = jsonb_set(options::jsonb, '{end_step_karma}', 'false')::text
        WHERE game = 'tomatoes' AND status <> 'lobby' AND options::jsonb -> 'end_step_karma' IS NULL;
    UPDATE tables SET state = jsonb_set(state::jsonb, '{options,end_step_karma}', 'false')::text
        WHERE game = 'tomatoes' AND state IS NOT NULL
        AND state::jsonb -> 'options' -> 'end_step_karma' IS NULL;
    UPDATE undo_states SET state = jsonb_set(state::jsonb, '{options,end_step_karma}', 'false')::text
        WHERE state::jsonb -> 'options' -> 'end_step_karma' IS NULL
        AND table_id IN (SELECT id FROM tables WHERE game = 'tomatoes');
    """,
}
"""PostgreSQL's text of the steps (by index into MIGRATIONS) that use functions only SQLite has."""

SCHEMA_VERSION = len(MIGRATIONS)
