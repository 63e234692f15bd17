-- The real program's fixed workload (scripts/e2e.sh, real.pin): sqlite3's
-- shell on an in-memory database, run as
--   sqlite3 -batch -bail -init workloads/real.sql :memory: .quit
-- Generated data (no random(): every run does the same work), recursive
-- CTEs, an index, joins, sorting and aggregates; about 2.5 s of CPU under
-- QEMU's TCG. Prints one line: what each step found.
CREATE TEMP TABLE r(step INTEGER PRIMARY KEY, v TEXT);
CREATE TABLE t(id INTEGER PRIMARY KEY, a INTEGER, b TEXT, c REAL);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 30000)
INSERT INTO t SELECT i, (i * 7919) % 997, printf('k%08d', (i * 104729) % 30000), i * 0.5 FROM n;
CREATE INDEX t_a ON t(a);
CREATE TABLE u AS SELECT a, count(*) AS n, sum(c) AS s FROM t GROUP BY a;
-- A join through the index, and one through the small table.
INSERT INTO r(v) SELECT count(*) || '/' || sum(x.c + y.c)
	FROM t AS x JOIN t AS y ON x.a = y.a WHERE x.id <= 1000;
INSERT INTO r(v) SELECT count(*) || '/' || max(u.s)
	FROM t JOIN u ON t.a = u.a WHERE t.b > 'k00015000';
-- Sorting: on text, on an expression, and a window function.
INSERT INTO r(v) SELECT group_concat(b) FROM (SELECT b FROM t ORDER BY b DESC, id LIMIT 2);
INSERT INTO r(v) SELECT group_concat(id) FROM (SELECT id FROM t ORDER BY (a * 31 + id) % 1009, id LIMIT 2);
INSERT INTO r(v) SELECT sum(r) FROM (SELECT rank() OVER (PARTITION BY a ORDER BY b) AS r FROM t);
-- A recursive CTE that computes: the Collatz lengths of 1..2000.
INSERT INTO r(v)
WITH RECURSIVE c(s, x) AS (
  SELECT value, value FROM generate_series(1, 2000)
  UNION ALL SELECT s, CASE WHEN x % 2 = 0 THEN x / 2 ELSE 3 * x + 1 END FROM c WHERE x > 1)
SELECT count(*) || '/' || max(n) FROM (SELECT s, count(*) AS n FROM c GROUP BY s);
SELECT 'real.sql: ' || group_concat(v, ' ') FROM (SELECT v FROM r ORDER BY step);
