-- silo: SQLite's full-text index is fed in batches from a table of pending rows
-- (../sqlite/0018_silo_search_pending.sql). PostgreSQL's GIN index reads `search_text` on the
-- envelope's row itself, written with the row: nothing is pending here. Kept so that both
-- backends' migrations keep the same numbers.
SELECT 1;
