#!/usr/bin/env bash
# Times FormBody.decode on a hostile body (distinct names without '='), 64 KiB and 1 MiB, 3 runs each.
#   scripts/bench-form.sh              this tree's FormBody
#   scripts/bench-form.sh --rev REV    REV's FormBody (compiled from git) in its place, for a before/after
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -B -q -DskipTests test-compile dependency:build-classpath \
  -Dmdep.outputFile=target/test-classpath.txt -Dmdep.includeScope=test >&2
CP="target/test-classes:target/classes:$(cat target/test-classpath.txt)"
if [ "${1:-}" = "--rev" ]; then
  OLD=target/bench-form-rev
  rm -rf "$OLD" && mkdir -p "$OLD/src"
  git show "$2:src/main/java/paynotify/channel/FormBody.java" > "$OLD/src/FormBody.java"
  javac -d "$OLD/classes" -cp target/classes "$OLD/src/FormBody.java"
  CP="$OLD/classes:$CP"
  echo "FormBody of $2" >&2
fi
exec java -Xmx512m -cp "$CP" paynotify.bench.FormBodyBench
