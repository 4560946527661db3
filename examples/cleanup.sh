#!/bin/sh
# Housekeeping with one catastrophic line and several safe ones.
cache_dir="$HOME/.cache/myapp"

rm -rf "${cache_dir:?}/tmp"     # guarded: fine
find /tmp -name 'myapp-*' -mtime +7 -delete
echo "rm -rf / would be a disaster"  # only text

sudo rm -rf /usr /opt/myapp
