#!/usr/bin/env bash
# Reconciliation benchmark: generates an Alipay bill of N rows (default 1,000,000) with known
# discrepancies and the matching orders and payments, then times `scripts/paynotify reconcile` (its
# own JVM and options) and, on the same data in the same run, the seed's SQL method (LOAD DATA of the
# bill + LEFT JOINs); reports both, the peak RSS, and whether exactly the injected discrepancies were found.
#   scripts/bench-reconcile.sh [--rows 1000000] [--server 127.0.0.1:3306]
# Without --server it runs on a fresh embedded MariaDB; with it, on that server (user root, password
# in PAYNOTIFY_TEST_DB_PASSWORD) in a database paynotify_bench_reconcile, dropped and created first.
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -B -q -DskipTests package test-compile dependency:build-classpath \
  -Dmdep.outputFile=target/test-classpath.txt -Dmdep.includeScope=test >&2
rm -rf target/bench-reconcile
exec java -Xmx512m -cp "target/test-classes:target/classes:$(cat target/test-classpath.txt)" \
  paynotify.bench.ReconcileBench --dir target/bench-reconcile "$@"
