-- The demo database: a creation table and an idempotency-key table in the
-- reference shape.
CREATE TABLE idemctl_demo (created_by TEXT NOT NULL);
INSERT INTO idemctl_demo VALUES ('idemctl demo');

CREATE TABLE orders (
    id              INTEGER PRIMARY KEY,
    public_id       TEXT NOT NULL UNIQUE,
    customer_id     INTEGER NOT NULL,
    sku             TEXT NOT NULL,
    quantity        INTEGER NOT NULL,
    amount_cents    INTEGER NOT NULL,
    currency        TEXT NOT NULL,
    idempotency_key TEXT,
    -- The storefront's cart session, minted by each attempt's checkout.
    cart_token      TEXT NOT NULL,
    created_at      TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    -- Set by the application on every write, as ORMs do.
    updated_at      TEXT NOT NULL
);
CREATE INDEX orders_created_at ON orders (created_at);

CREATE TABLE idempotency_keys (
    scope_id      TEXT NOT NULL,
    operation     TEXT NOT NULL,
    key           TEXT NOT NULL,
    request_hash  BLOB,
    status        TEXT NOT NULL,  -- in_progress | succeeded | failed_retryable | failed_permanent
    response_code INTEGER,
    response_body TEXT,
    locked_at     TEXT,
    created_at    TEXT NOT NULL,
    expires_at    TEXT NOT NULL,
    PRIMARY KEY (scope_id, operation, key)
);
CREATE INDEX idempotency_keys_expires_at ON idempotency_keys (expires_at);
