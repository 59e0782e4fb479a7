#!/usr/bin/env bash
# The worst /health latency while N clients send hostile form bodies (every shape, 64 KiB by default,
# http.max_body_bytes raised to let them in) to a service process with start.sh's JVM settings.
#   scripts/bench-health.sh [--clients 8] [--size 65536] [--seconds 20]
# Not a test: figures drift on a noisy 2-core machine; compare runs of the same moment.
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -B -q -DskipTests package test-compile dependency:build-classpath \
  -Dmdep.outputFile=target/test-classpath.txt -Dmdep.includeScope=test >&2
exec java -Xmx256m -cp "target/test-classes:target/classes:$(cat target/test-classpath.txt)" \
  paynotify.bench.HealthUnderHostileBench "$@"
