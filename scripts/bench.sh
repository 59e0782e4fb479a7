#!/usr/bin/env bash
# Notify benchmark: first deliveries and duplicates through the service (started with
# scripts/start.sh and its JVM options) versus the same three-statement transaction over plain
# JDBC (the ceiling), all in one run on one database. Prints ratios, the service's PSS under load
# and its CPU per notification over the first 1,000 after start (the cold path) beside the warm one.
#   scripts/bench.sh [--channel alipay|wechat_v2|wechat_v3|epay] [--n 20000] [--c 64] [--m 1000] [--k 10]
#                    [--warmup 20000] [--forward on] [--alerts on] [--admin off] [--pool N] [--instances N] [--server HOST:PORT] [--php on]
# --server: a running MariaDB/MySQL (root, empty password; database paynotify_bench, recreated) instead
# of a fresh embedded MariaDB.
# --php on: the seed's PHP callback (../shared/anchors/php-callback, --php-dir DIR) in the same rounds,
# on the machine's MariaDB (--server defaults to 127.0.0.1:3306), verifying the bench's Alipay key;
# needs `apt-get install -y php-fpm php-mysql nginx`.
# --alerts on: a WeCom robot in the bench JVM as the service's alert target (the watch then looks every 10 s).
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
