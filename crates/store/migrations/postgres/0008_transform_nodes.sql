-- transform: the nodes that listen for job notices, each with the last time it said so
-- (milliseconds). A node that finds no other recent one sends no notices (nobody would hear
-- them). Keep in step with ../sqlite/0008_transform_nodes.sql.
CREATE TABLE transform_nodes (
    id      TEXT   NOT NULL PRIMARY KEY,
    seen_at BIGINT NOT NULL
);
