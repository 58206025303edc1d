-- kwgen cache schema (SQLite).  lib/store/conn.c carries the same statements and
-- runs them on every open (each is idempotent); tests/unit/test_cache.c
-- checks that the two agree.  Readable with the
-- sqlite3 shell, e.g.
--   sqlite3 kwgen-cache.db "SELECT key, isa, bytes,
--       datetime(last_access/1000, 'unixepoch') FROM entries ORDER BY last_access DESC"
--   sqlite3 kwgen-cache.db "SELECT asm FROM entries WHERE key = '...'"

-- One row per generated response, keyed by the request key
-- (SHA-256 of generator-version salt || canonical request, 64 hex digits).
-- kwgend's POST /v1/verify stores its verifications here too: such a row's
-- generator_version holds the verifier's version ('kwgen-verify-N'; rows
-- written before it was kept apart hold the generator's and are known by
-- request LIKE '{"route":"/v1/verify"%'), config_id its key, asm '' and
-- tables '[]'.  The kernel routes answer 404 for them; kwgen cache marks them.
CREATE TABLE IF NOT EXISTS entries (
	key               TEXT PRIMARY KEY NOT NULL,
	config_id         TEXT NOT NULL,    -- SHA-256 of the canonical request
	generator_version TEXT NOT NULL,    -- the salt the key was made with
	isa               TEXT NOT NULL,    -- "gfx942"
	request           TEXT NOT NULL,    -- the canonical request (compact JSON)
	asm               TEXT NOT NULL,    -- every result's asm, concatenated in order
	tables            TEXT NOT NULL,    -- JSON array, one object per result:
	                                    --   {"name", "acc2arch"?, "arch2acc"?, "value"?}
	response          TEXT NOT NULL,    -- the full response JSON ("cached": true)
	bytes             INTEGER NOT NULL, -- request + asm + tables + response, in bytes
	created           INTEGER NOT NULL, -- milliseconds since the Unix epoch
	last_access       INTEGER NOT NULL, -- milliseconds since the Unix epoch
	source            TEXT NOT NULL DEFAULT ''  -- the "source" of the request that generated
	                                    -- the row (compact JSON; '' = none); not part of the key
);

CREATE INDEX IF NOT EXISTS entries_last_access ON entries (last_access);

-- Running totals, kept exact by the triggers below, so the size bound is
-- checked inside the writing transaction without scanning the table.
CREATE TABLE IF NOT EXISTS totals (
	id      INTEGER PRIMARY KEY CHECK (id = 1),
	entries INTEGER NOT NULL,
	bytes   INTEGER NOT NULL
);
INSERT OR IGNORE INTO totals (id, entries, bytes) VALUES (1, 0, 0);

CREATE TRIGGER IF NOT EXISTS entries_insert AFTER INSERT ON entries BEGIN
	UPDATE totals SET entries = entries + 1, bytes = bytes + NEW.bytes WHERE id = 1;
END;
CREATE TRIGGER IF NOT EXISTS entries_delete AFTER DELETE ON entries BEGIN
	UPDATE totals SET entries = entries - 1, bytes = bytes - OLD.bytes WHERE id = 1;
END;
CREATE TRIGGER IF NOT EXISTS entries_update AFTER UPDATE OF bytes ON entries BEGIN
	UPDATE totals SET bytes = bytes - OLD.bytes + NEW.bytes WHERE id = 1;
END;
