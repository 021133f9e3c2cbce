#!/usr/bin/env bash
# `npm test`'s runs, after build and typecheck: the whole suite on ZooKeeper 3.9.3 (Debian 13's, unpacked by
# scripts/zookeeper-versions.sh), then the server-facing core again on the system's 3.8.0 (Debian 12's). The
# conformance suite runs all four of its targets (real 3.9 and 3.8, in-memory 3.9 and 3.8) in the first run
# whatever its release, so it is not repeated. Arguments go to both vitest runs. Exits non-zero if either failed.
#
# Why this split (README, "Testing"): 3.9 is the newest release and what a new install gets, so everything is held
# to it; 3.8 is what most running ensembles still are, and what differs on it is what talks to the server —
# the client, the session, the recipes' main flows. Twice the whole suite would double CI's time (~8 min each).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

ZK39="${ZKWIRE_ZOOKEEPER_DIR:-$PWD/.zookeeper}/3.9.3"
# The server-facing core: what is repeated on 3.8.
CORE_ON_38=(
  test/client test/session
  test/recipes/mutex.test.ts test/recipes/read-write-lock.test.ts test/recipes/semaphore.test.ts
  test/recipes/leader-latch.test.ts test/recipes/leader-selector.test.ts test/recipes/curator-cache.test.ts
  test/recipes/barriers.test.ts test/recipes/shared-count.test.ts test/recipes/persistent-node.test.ts
  test/recipes/service-discovery.test.ts
)
# Inside those directories, what is the client's own logic over plain reads and writes (the retry loop through a
# fault proxy): the same on every release, and seconds of the 3.8 run. (CURATOR-690's 70,000-child cache lives in
# its own file, outside the list.)
NOT_ON_38=(test/client/retries.test.ts)

if [[ ! -f "$ZK39/usr/share/java/zookeeper.jar" ]]; then
  echo "test-matrix: ZooKeeper 3.9.3 is not in $ZK39; run  bash scripts/setup.sh  (npm test's pretest does)" >&2
  exit 1
fi

# Each run's output is kept to add the two runs' counts into one closing line.
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT

printf '\n==> ZooKeeper 3.9.3: the whole suite\n'
ZOOKEEPER_HOME="$ZK39" ZKWIRE_TEST_ZOOKEEPER=3.9.3 npx vitest run "$@" 2>&1 | tee "$logs/first"
first=${PIPESTATUS[0]}

printf '\n==> ZooKeeper 3.8.0 (the system'"'"'s): client, session and the recipes'"'"' main tests\n'
env -u ZOOKEEPER_HOME ZKWIRE_TEST_ZOOKEEPER=3.8.0 npx vitest run "${CORE_ON_38[@]}" --exclude "${NOT_ON_38[@]}" "$@" 2>&1 | tee "$logs/second"
second=${PIPESTATUS[0]}

# The summary reporter's "N passed, M failed" line of each run (absent if a run died before it).
count() { grep -Eo '^[0-9]+ passed, [0-9]+ failed' "$1" | tail -n 1; }
passed=0 failed=0
for run in first second; do
  line=$(count "$logs/$run")
  [[ -n "$line" ]] || { failed=$((failed + 1)); continue; }
  read -r p _ f _ <<<"${line//,/}"
  passed=$((passed + p)) failed=$((failed + f))
done

printf '\ntest-matrix: ZooKeeper 3.9.3 (whole suite): %s; ZooKeeper 3.8.0 (core): %s\n' \
  "$([[ $first -eq 0 ]] && echo passed || echo FAILED)" "$([[ $second -eq 0 ]] && echo passed || echo FAILED)"
printf '%s passed, %s failed\n' "$passed" "$failed"
[[ $first -eq 0 && $second -eq 0 ]]
