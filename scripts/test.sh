#!/usr/bin/env bash
# The test suite, from a fresh clone: starts the database servers if they are
# down, then runs every unit and integration test against PostgreSQL, MariaDB
# and SQLite. With CI set, an unreachable server fails the tests instead of
# skipping them. Every test binary runs (--no-fail-fast); the exit is non-zero if
# any test failed.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/services.sh
cargo test --locked --no-fail-fast "$@"
