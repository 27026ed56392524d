-- transform: the nodes that listen for job notices (used on PostgreSQL only: SQLite serves one
-- node). Keep in step with ../postgres/0008_transform_nodes.sql.
CREATE TABLE transform_nodes (
    id      TEXT   NOT NULL PRIMARY KEY,
    seen_at BIGINT NOT NULL
);
