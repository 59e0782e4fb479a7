#!/usr/bin/env bash
# Reconciliation benchmark: generates an Alipay bill of N rows (default 1,000,000) with known
# discrepancies and the matching payments in a fresh embedded MariaDB, then times
# `scripts/paynotify reconcile` (its own JVM and options) and reports wall time, peak RSS, and
# whether exactly the injected discrepancies were found.
#   scripts/bench-reconcile.sh [--rows 1000000]
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -B -q -DskipTests package test-compile dependency:build-classpath \
  -Dmdep.outputFile=target/test-classpath.txt -Dmdep.includeScope=test >&2
rm -rf target/bench-reconcile
exec java -Xmx512m -cp "target/test-classes:target/classes:$(cat target/test-classpath.txt)" \
  paynotify.bench.ReconcileBench --dir target/bench-reconcile "$@"
