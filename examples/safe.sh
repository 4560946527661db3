#!/usr/bin/env bash
# Nothing here should be reported.
set -eu
for f in ./*.txt; do
  wc -l "$f"
done
cat <<'EOF2'
rm -rf /   (inside a quoted heredoc: text, not a command)
EOF2
git status --short
