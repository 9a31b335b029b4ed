#!/usr/bin/env bash
# Runs every fuzz target of the parsers of files and model output for FUZZTIME each
# (default 3s: the short run of `make test`; `make fuzz` runs 60s). Each target also
# replays its committed seed corpus (testdata/fuzz/<Target>) in every plain `go test`.
set -euo pipefail
cd "$(dirname "$0")/.."
t=${FUZZTIME:-3s}
targets=(
  "./backend/config FuzzLoad"
  "./backend/session FuzzParseRewinds"
  "./backend/session FuzzParse"
  "./backend/skills FuzzParse"
  "./backend/schedule FuzzCron"
  "./backend/schedule FuzzJobsFile"
  "./backend/tools FuzzPrepare"
  "./backend/tools FuzzResolvePath"
  "./backend/mcp FuzzParseClaudeDesktop"
  "./backend/memory FuzzIndexFile"
  "./backend/tools FuzzExecGuard"
  "./backend/llm FuzzParseToolCalls"
  "./backend/fitness FuzzParse"
  "./backend/agent/prompt FuzzShortTool"
  "./backend/memory FuzzTokenize"
  "./backend/memory FuzzInboxProposal"
  "./backend/llm FuzzChatEncoder"
)
for x in "${targets[@]}"; do
  set -- $x
  echo "fuzz $1 $2 ($t)"
  if ! log=$(go test -run='^$' -fuzz="^$2\$" -fuzztime="$t" "$1" 2>&1); then
    # What failed and why (a crasher is written under testdata/fuzz/<Target>).
    printf '%s\n' "$log" | tail -40
    exit 1
  fi
done
echo "fuzz: ${#targets[@]} targets passed"
