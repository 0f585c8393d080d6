-- demo: the orders, many rows a statement (the VALUES follow).
INSERT INTO orders (public_id, customer_id, sku, quantity, amount_cents, currency, idempotency_key, cart_token, created_at, updated_at)
