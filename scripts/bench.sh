#!/usr/bin/env bash
# Notify benchmark: first deliveries and duplicates through the service (started with
# scripts/start.sh and its JVM options) versus the same three-statement transaction over plain
# JDBC (the ceiling), all in one run on one embedded MariaDB. Prints ratios and the peak RSS.
#   scripts/bench.sh [--channel alipay|wechat_v2|wechat_v3|epay] [--n 20000] [--c 64] [--m 1000] [--k 10]
#                    [--warmup 20000] [--forward on] [--admin off]
# --forward on: the service also forwards each payment to a site in the bench JVM that answers at once
# in some rounds and never in the others; the ratio of the two says whether a hanging site slows booking.
# Not a test: figures drift on a noisy 2-core machine; compare ratios from the same run.
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -B -q -DskipTests package test-compile dependency:build-classpath \
  -Dmdep.outputFile=target/test-classpath.txt -Dmdep.includeScope=test >&2
rm -rf target/bench
exec java -Xmx1g -cp "target/test-classes:target/classes:$(cat target/test-classpath.txt)" \
  paynotify.bench.NotifyBench --dir target/bench "$@"
