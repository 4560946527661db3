#!/usr/bin/env bash
# Prints the machine's own shell scripts or Makefiles, one absolute path per line: real input for
# the benchmarks and smoke runs, written by the distribution, not by this project.
#   bench/corpus.sh scripts   files under /usr and /etc that `file` calls a shell script (< 512 KiB)
#   bench/corpus.sh makefiles Makefile, makefile, GNUmakefile and *.mk under /usr, /opt and /etc
# Needs `file` (Debian package "file").
set -euo pipefail
case "${1:-scripts}" in
  scripts)
    find /usr /etc -xdev -type f -size -512k -print0 2>/dev/null \
      | xargs -0 file -N -0 2>/dev/null \
      | awk -F'\0' '$2 ~ /(POSIX|Bourne-Again) shell script|sh script/ { print $1 }' \
      | LC_ALL=C sort
    ;;
  makefiles)
    find /usr /opt /etc -xdev -type f \( -name Makefile -o -name makefile -o -name GNUmakefile -o -name '*.mk' \) \
      -not -path '*/node_modules/*' 2>/dev/null | LC_ALL=C sort
    ;;
  *) echo "usage: $0 scripts|makefiles" >&2; exit 2 ;;
esac
