-- silo: each envelope's headline facts and search text, on its row, and the text search index
-- over it (PostgreSQL). Keep in step with ../sqlite/0017_silo_summary_and_search.sql.
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

-- Backfill: the current version's facts, read once an envelope.
UPDATE silo_envelopes e SET
    number = nullif(CASE WHEN f.series = '' THEN f.code WHEN f.code = '' THEN f.series
                         ELSE f.series || '-' || f.code END, ''),
    supplier = nullif(f.supplier, ''),
    customer = nullif(f.customer, ''),
    currency = nullif(f.currency, ''),
    payable = nullif(f.payable, ''),
    issue_date = nullif(f.issue_date, ''),
    search_text = trim(regexp_replace(lower(
        coalesce(e.key, '') || ' ' || f.series || ' ' || f.code || ' ' || coalesce(f.supplier, '')
        || CASE WHEN f.s_tax <> '' THEN ' ' || f.s_tax || ' ' || f.s_country || f.s_tax ELSE '' END
        || ' ' || coalesce(f.customer, '')
        || CASE WHEN f.c_tax <> '' THEN ' ' || f.c_tax || ' ' || f.c_country || f.c_tax ELSE '' END
    ), '[[:space:][:punct:]]+', ' ', 'g'))
FROM (
    SELECT v.workspace_id, v.envelope_id, v.version,
           coalesce(d #>> '{doc,series}', '') AS series,
           coalesce(d #>> '{doc,code}', '') AS code,
           d #>> '{doc,supplier,name}' AS supplier,
           coalesce(d #>> '{doc,supplier,tax_id,country}', '') AS s_country,
           coalesce(d #>> '{doc,supplier,tax_id,code}', '') AS s_tax,
           d #>> '{doc,customer,name}' AS customer,
           coalesce(d #>> '{doc,customer,tax_id,country}', '') AS c_country,
           coalesce(d #>> '{doc,customer,tax_id,code}', '') AS c_tax,
           d #>> '{doc,currency}' AS currency,
           d #>> '{doc,totals,payable}' AS payable,
           d #>> '{doc,issue_date}' AS issue_date
    FROM silo_versions v, LATERAL (SELECT v.data::jsonb AS d) j
) f
WHERE f.workspace_id = e.workspace_id AND f.envelope_id = e.id AND f.version = e.version;

-- Search: every searched word's words in order, the last as a prefix (`silo::summary`), through
-- this index (the query rechecks the order on the rows it finds).
CREATE INDEX silo_envelopes_search ON silo_envelopes USING GIN (to_tsvector('simple', search_text));
