#!/bin/sh
# Installed by kit init: refuses a commit that stages a conflict marker (a merge left half done).
# Merge the files named (kit resolve settles kit's own), stage them again, then commit.
if git grep --cached -n -I -E '^(<<<<<<<|>>>>>>>)( |$)' -- . >&2; then
  echo "pre-commit: the staged lines above are conflict markers: merge them, then git add" >&2
  exit 1
fi
