#!/usr/bin/env bash
# Runs every fuzz target of the parsers of files and model output for a fixed number of
# executions: each target's count is about 2 s of fuzzing on a quiet two-core machine.
# FUZZSCALE multiplies the counts (`make test` 1, `make fuzz` 30). Each target also
# replays its committed seed corpus (testdata/fuzz/<Target>) in every plain `go test`.
#
# Counts, not durations: with a duration (-fuzztime=3s) Go's fuzz coordinator can fail a
# target with a bare "context deadline exceeded" when the deadline races a busy worker
# (a race in the coordinator, fixed in Go 1.27). A count has no deadline to race, so a loaded
# machine only makes the run slower.
set -euo pipefail
cd "$(dirname "$0")/.."
scale=${FUZZSCALE:-1}
targets=(
  "./backend/sandbox FuzzParseUnixSockets 20000"
  "./backend/config FuzzLoad 3000"
  "./backend/attach FuzzSafeName 20000"
  "./backend/attach FuzzSplit 10000"
  "./backend/attach FuzzPassagesFile 800"
  "./backend/attach FuzzView 3000"
  "./backend/attach FuzzDropped 5000"
  "./backend/session FuzzParseRewinds 10000"
  "./backend/session FuzzParse 150"
  "./backend/session FuzzReadLines 20000"
  "./backend/session FuzzParsePending 10000"
  "./backend/skills FuzzParse 20000"
  "./backend/schedule FuzzCron 3000"
  "./backend/schedule FuzzJobsFile 5000"
  "./backend/extract FuzzPDF 300"
  "./backend/extract FuzzDocx 1000"
  "./backend/extract FuzzHTML 4000"
  "./backend/extract FuzzCSV 2500"
  "./backend/extract FuzzWindow 20000"
  "./backend/picture FuzzPrepare 5000"
  "./backend/tools FuzzPrepare 5000"
  "./backend/tools FuzzResolvePath 5000"
  "./backend/mcp FuzzParseClaudeDesktop 10000"
  "./backend/recall FuzzIndexFile 30"
  "./backend/recall FuzzVecBlock 20000"
  "./backend/recall FuzzDocChunks 5000"
  "./backend/knowledge FuzzOpen 10000"
  "./backend/knowledge FuzzView 5000"
  "./backend/tools FuzzExecGuard 8000"
  "./backend/llm FuzzParseToolCalls 6000"
  "./backend/llm FuzzContextRefusal 3000"
  "./backend/fitness FuzzParse 15000"
  "./backend/models FuzzParsePS 10000"
  "./backend/fitness FuzzReadScratch 5000"
  "./backend/agent/prompt FuzzShortTool 250"
  "./backend/recall FuzzTokenize 3000"
  "./backend/recall FuzzStem 3000"
  "./backend/recall FuzzExpand 3000"
  "./backend/recall FuzzIntent 3000"
  "./backend/recall FuzzLikedIn 3000"
  "./backend/recall FuzzDecodeWordNet 3000"
  "./backend/recall FuzzDecodeNbr 3000"
  "./backend/channels FuzzSafeName 10000"
  "./backend/channels FuzzPairText 10000"
  "./backend/channels FuzzParseState 5000"
  "./backend/channels FuzzReplySplit 10000"
  "./backend/recall FuzzDecodeTSFold 5000"
  "./scripts/wordnet FuzzParseSynset 10000"
  "./scripts/wordnet FuzzParseCount 10000"
  "./scripts/glovenbr FuzzDecode 3000"
  "./backend/memory FuzzInboxProposal 10"
  "./backend/memory FuzzUnifiedDiff 8000"
  "./backend/memrepo FuzzLooseObject 300"
  "./backend/recall FuzzAbsentRecord 3000"
  "./backend/session FuzzScanMessages 5000"
  "./backend/cleanpages FuzzCleanReadOnly 20000"
  "./backend/internal/recallbench FuzzFound 20000"
  "./backend/channels/telegram FuzzToHTML 4000"
  "./backend/channels/telegram FuzzDecodeUpdates 10000"
  "./backend/internal/fakebot FuzzParseHTML 10000"
  "./backend/applock FuzzParseHolder 20000"
)
for x in "${targets[@]}"; do
  set -- $x
  # go test fuzzes nothing and passes when no target matches: a removed or renamed
  # target would count as passed.
  if ! grep -qs "^func $2(" "$1"/*_test.go; then
    echo "fuzz: $1 has no target $2 (removed or renamed? update this list)"
    exit 1
  fi
  n=$(($3 * scale))
  echo "fuzz $1 $2 (${n} executions)"
  if ! log=$(go test -run='^$' -fuzz="^$2\$" -fuzztime="${n}x" "$1" 2>&1); then
    # What failed and why (a crasher is written under testdata/fuzz/<Target>).
    printf '%s\n' "$log" | tail -40
    exit 1
  fi
done
echo "fuzz: ${#targets[@]} targets passed"
