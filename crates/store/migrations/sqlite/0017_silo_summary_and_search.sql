-- silo: each envelope's headline facts and search text, on its row, and SQLite's full-text index
-- of the search text. Keep in step with ../postgres/0017_silo_summary_and_search.sql.
--
-- The facts are written with every version of the envelope (`silo::summary`), so the console's
-- list and search read columns, not documents. `search_text` holds the searched words (key,
-- series, code, parties' names and tax ids) lowercase, one space apart.
ALTER TABLE silo_envelopes ADD COLUMN number TEXT;
ALTER TABLE silo_envelopes ADD COLUMN supplier TEXT;
ALTER TABLE silo_envelopes ADD COLUMN customer TEXT;
ALTER TABLE silo_envelopes ADD COLUMN currency TEXT;
ALTER TABLE silo_envelopes ADD COLUMN payable TEXT;
ALTER TABLE silo_envelopes ADD COLUMN issue_date TEXT;
ALTER TABLE silo_envelopes ADD COLUMN search_text TEXT NOT NULL DEFAULT '';

-- The full-text index: a row for each version's search text (a row of an older version stays
-- behind and is not matched: search joins on the envelope's current version). `ascii` splits
-- on what search_text already separates by spaces; `detail=none` keeps only which rows hold a
-- word (a third of the size with positions), and search checks the word order on the row.
CREATE VIRTUAL TABLE silo_search USING fts5(
    workspace_id UNINDEXED, envelope_id UNINDEXED, version UNINDEXED, text,
    tokenize = 'ascii', detail = 'none'
);
CREATE TRIGGER silo_search_created AFTER INSERT ON silo_envelopes BEGIN
    INSERT INTO silo_search (workspace_id, envelope_id, version, text)
    VALUES (new.workspace_id, new.id, new.version, new.search_text);
END;
CREATE TRIGGER silo_search_changed AFTER UPDATE OF version ON silo_envelopes
WHEN new.version IS NOT old.version BEGIN
    INSERT INTO silo_search (workspace_id, envelope_id, version, text)
    VALUES (new.workspace_id, new.id, new.version, new.search_text);
END;

-- Backfill: the current version's facts, read once an envelope. SQLite has no regular
-- expressions: ASCII punctuation becomes spaces a few characters a statement (a deeper nest
-- of replace() overflows SQLite's parser), then runs of spaces one. lower() folds ASCII only,
-- as the search of the folio before this one did: an older envelope's non-ASCII capitals are
-- found as they are written until its next version.
CREATE TEMP TABLE silo_facts AS
SELECT e.workspace_id, e.id,
       coalesce(json_extract(v.data, '$.doc.series'), '') AS series,
       coalesce(json_extract(v.data, '$.doc.code'), '') AS code,
       json_extract(v.data, '$.doc.supplier.name') AS supplier,
       coalesce(json_extract(v.data, '$.doc.supplier.tax_id.country'), '') AS s_country,
       coalesce(json_extract(v.data, '$.doc.supplier.tax_id.code'), '') AS s_tax,
       json_extract(v.data, '$.doc.customer.name') AS customer,
       coalesce(json_extract(v.data, '$.doc.customer.tax_id.country'), '') AS c_country,
       coalesce(json_extract(v.data, '$.doc.customer.tax_id.code'), '') AS c_tax,
       json_extract(v.data, '$.doc.currency') AS currency,
       json_extract(v.data, '$.doc.totals.payable') AS payable,
       json_extract(v.data, '$.doc.issue_date') AS issue_date
FROM silo_envelopes e
JOIN silo_versions v ON v.workspace_id = e.workspace_id AND v.envelope_id = e.id AND v.version = e.version;

CREATE TEMP TABLE silo_texts AS
SELECT f.*, coalesce(e.key, '') || ' ' || f.series || ' ' || f.code || ' ' || coalesce(f.supplier, '')
         || CASE WHEN f.s_tax <> '' THEN ' ' || f.s_tax || ' ' || f.s_country || f.s_tax ELSE '' END
         || ' ' || coalesce(f.customer, '')
         || CASE WHEN f.c_tax <> '' THEN ' ' || f.c_tax || ' ' || f.c_country || f.c_tax ELSE '' END AS raw
FROM silo_facts f JOIN silo_envelopes e ON e.workspace_id = f.workspace_id AND e.id = f.id;

UPDATE silo_texts SET raw = lower(raw);
UPDATE silo_texts SET raw = replace(replace(replace(replace(replace(replace(replace(raw, '!', ' '), '"', ' '), '#', ' '), '$', ' '), '%', ' '), '&', ' '), '''', ' ');
UPDATE silo_texts SET raw = replace(replace(replace(replace(replace(replace(replace(raw, '(', ' '), ')', ' '), '*', ' '), '+', ' '), ',', ' '), '-', ' '), '.', ' ');
UPDATE silo_texts SET raw = replace(replace(replace(replace(replace(replace(replace(raw, '/', ' '), ':', ' '), ';', ' '), '<', ' '), '=', ' '), '>', ' '), '?', ' ');
UPDATE silo_texts SET raw = replace(replace(replace(replace(replace(replace(replace(raw, '@', ' '), '[', ' '), '\', ' '), ']', ' '), '^', ' '), '_', ' '), '`', ' ');
UPDATE silo_texts SET raw = replace(replace(replace(replace(replace(replace(replace(raw, '{', ' '), '|', ' '), '}', ' '), '~', ' '), char(9), ' '), char(10), ' '), char(13), ' ');
UPDATE silo_texts SET raw = trim(replace(replace(replace(replace(replace(raw, '  ', ' '), '  ', ' '), '  ', ' '), '  ', ' '), '  ', ' '));

UPDATE silo_envelopes SET
    number = nullif(CASE WHEN t.series = '' THEN t.code WHEN t.code = '' THEN t.series
                         ELSE t.series || '-' || t.code END, ''),
    supplier = nullif(t.supplier, ''),
    customer = nullif(t.customer, ''),
    currency = nullif(t.currency, ''),
    payable = nullif(CAST(t.payable AS TEXT), ''),
    issue_date = nullif(t.issue_date, ''),
    search_text = t.raw
FROM silo_texts t
WHERE t.workspace_id = silo_envelopes.workspace_id AND t.id = silo_envelopes.id;

DROP TABLE silo_texts;
DROP TABLE silo_facts;

INSERT INTO silo_search (workspace_id, envelope_id, version, text)
SELECT workspace_id, id, version, search_text FROM silo_envelopes;
