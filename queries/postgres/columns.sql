-- Columns of one table: name, type, default expression, identity marker (or
-- 'on update trigger' for a column a BEFORE UPDATE row trigger sets: its
-- function assigns NEW.column, or it is moddatetime(column)), the
-- place in the primary key (0 here: it comes from the unique indexes), and
-- the type a domain stands for (domains of domains followed to their base),
-- whether it is NOT NULL, and whether a foreign key holds it.
SELECT a.attname::text AS name,
       format_type(a.atttypid, a.atttypmod) AS data_type,
       pg_get_expr(d.adbin, d.adrelid) AS default_expr,
       CASE WHEN a.attidentity <> '' THEN 'identity'
            WHEN EXISTS (SELECT 1 FROM pg_catalog.pg_trigger g
                         JOIN pg_catalog.pg_proc p ON p.oid = g.tgfoid
                         WHERE g.tgrelid = a.attrelid AND NOT g.tgisinternal
                           AND (g.tgtype & 1) <> 0 AND (g.tgtype & 2) <> 0 AND (g.tgtype & 16) <> 0
                           AND (lower(p.prosrc) ~ ('new\s*\.\s*"?'
                                    || regexp_replace(lower(a.attname), '([^a-z0-9_])', '\\\1', 'g')
                                    || '"?\s*:?=')
                                OR (p.proname = 'moddatetime'
                                    AND position(convert_to(a.attname, 'UTF8') IN g.tgargs) = 1)))
            THEN 'on update trigger'
            ELSE '' END AS generated,
       '0' AS pk_position,
       CASE WHEN t.typtype = 'd'
            THEN format_type(CASE WHEN b.typtype = 'd' THEN b.typbasetype ELSE t.typbasetype END,
                             CASE WHEN b.typtype = 'd' THEN b.typtypmod ELSE t.typtypmod END)
            ELSE format_type(a.atttypid, a.atttypmod) END AS base_type,
       CASE WHEN a.attnotnull THEN '1' ELSE '0' END AS not_null,
       CASE WHEN EXISTS (SELECT 1 FROM pg_catalog.pg_constraint f
                         WHERE f.conrelid = a.attrelid AND f.contype = 'f' AND a.attnum = ANY (f.conkey))
            THEN '1' ELSE '0' END AS foreign_key
FROM pg_catalog.pg_attribute a
JOIN pg_catalog.pg_type t ON t.oid = a.atttypid
LEFT JOIN pg_catalog.pg_type b ON b.oid = t.typbasetype
JOIN pg_catalog.pg_class c ON c.oid = a.attrelid
JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
LEFT JOIN pg_catalog.pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
WHERE n.nspname = $1
  AND c.relname = $2
  AND a.attnum > 0
  AND NOT a.attisdropped
ORDER BY a.attnum
