#!/usr/bin/env bash
# Where a first delivery's database CPU goes: the booking transaction over the service's client with the
# ceiling's notify.php UPDATE, with OrdersTable's UPDATE (the service's), and with the duplicate pre-check
# before it; prints the database server's CPU per transaction, variants alternating over two rounds.
#   scripts/bench-statements.sh [--n 6000] [--c 32] [--server 127.0.0.1:3306]
# Without --server on a fresh embedded MariaDB; with it (root, empty password) in a database
# paynotify_bench, dropped and created first. The server must run on this machine (its CPU is read).
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -B -q -DskipTests package test-compile dependency:build-classpath \
  -Dmdep.outputFile=target/test-classpath.txt -Dmdep.includeScope=test >&2
exec java -Xmx512m -cp "target/test-classes:target/classes:$(cat target/test-classpath.txt)" \
  paynotify.bench.StatementBench "$@"
