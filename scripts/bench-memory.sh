#!/usr/bin/env bash
# Memory and cold-path benchmark: the service's peak PSS under load at C=32, its CPU per notification
# over the first 1,000 after start and once warm, for one or more sets of JVM options, each started
# by scripts/start.sh (as JAVA_OPTS; "default" = start.sh's own), back to back on one embedded MariaDB.
#   scripts/bench-memory.sh [--n 9000] [--c 32] [--cold 1000] [--repeat 1] [[NAME=value ...] default|"JVM OPTIONS" ...]
# (leading NAME=value words of an option set are its environment, e.g. "MALLOC_ARENA_MAX=2 default").
# Not a test: figures drift on a noisy 2-core machine; compare option sets from the same run.
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -B -q -DskipTests package test-compile dependency:build-classpath \
  -Dmdep.outputFile=target/test-classpath.txt -Dmdep.includeScope=test >&2
rm -rf target/bench-memory
exec java -Xmx1g -cp "target/test-classes:target/classes:$(cat target/test-classpath.txt)" \
  paynotify.bench.MemoryBench --dir target/bench-memory "$@"
