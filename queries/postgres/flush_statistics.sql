-- PostgreSQL 15+: this session's pending table statistics reported now
-- rather than up to a second later; older servers lack the function.
SELECT pg_stat_force_next_flush()::text
