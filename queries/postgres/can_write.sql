-- Whether this session may change a table: the server is not a standby in
-- recovery, the session is not read-only, and which of the privileges it
-- needs it lacks. $1: the table as SQL; $2: the privileges, comma-separated.
SELECT pg_is_in_recovery()::text,
       current_setting('transaction_read_only'),
       (SELECT string_agg(p, ', ')
        FROM unnest(string_to_array($2, ',')) AS p
        WHERE NOT has_table_privilege(to_regclass($1), p))
