#!/usr/bin/env bash
# A deploy script of the kind an agent writes: several lines here are dangerous.
set -euo pipefail

BUILD_DIR=${BUILD_DIR:-}

echo "Cleaning old build"
rm -rf "$BUILD_DIR/"

git fetch origin
git reset --hard origin/main
git push --force origin HEAD:release

# Reset the staging database.
psql "$STAGING_URL" <<'SQL'
DROP TABLE IF EXISTS sessions;
DELETE FROM audit_log;
SQL

kubectl -n staging delete deployment api
