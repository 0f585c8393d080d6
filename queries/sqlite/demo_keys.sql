-- demo: the idempotency keys, many rows a statement (the VALUES follow).
INSERT INTO idempotency_keys (scope_id, operation, key, request_hash, status, response_code, response_body,
    locked_at, created_at, expires_at)
