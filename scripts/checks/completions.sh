#!/usr/bin/env bash
# Shell completions parse in their shells and equal what the built binary generates.
set -euo pipefail
cd "$(dirname "$0")/../.."
bin="$(swift build --show-bin-path)/corsano"
bash -n completions/corsano.bash
zsh -n completions/_corsano
fish --no-execute completions/corsano.fish
status=0
for pair in bash:corsano.bash zsh:_corsano fish:corsano.fish; do
  if ! "$bin" completion "${pair%%:*}" | diff -u "completions/${pair#*:}" - >&2; then
    echo "completions/${pair#*:} is stale: regenerate with CORSANO_RECORD_SNAPSHOTS=1 swift test --filter CompletionTests (it writes the file and fails naming it), review the diff, run again without the variable" >&2
    status=1
  fi
done
[ "$status" -eq 0 ] && echo "completions: bash, zsh, fish parse and match the command table"
exit "$status"
