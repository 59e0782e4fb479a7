#!/usr/bin/env bash
# Starts paynotify with conf/application.yaml (or the file given as --config FILE).
# Builds the jar first when it is missing. With an empty database.host it starts an embedded
# MariaDB under data/ (kept across restarts); otherwise it uses the configured server.
# A relative --config is the caller's: the script works in the installation directory and tells
# the service where it was called from.
set -euo pipefail
CALLER_DIR="$PWD"
cd "$(dirname "$0")/.."

if [ ! -f target/paynotify.jar ] || [ ! -d target/lib ]; then
  echo "paynotify: building (first start only)..." >&2
  mvn -B -q -DskipTests package >&2
fi

# Frugal defaults for a small VPS (scripts/bench-memory.sh measures them): 94 MiB PSS under load at 32
# concurrent notifications. TieredStopAtLevel=1 compiles with C1 only: C2's compile arenas, profiles and
# code cost 35-45 MiB under load and most of the CPU of the first thousands of notifications after a
# start; its price is CPU once warm. A busy site can drop it through JAVA_OPTS. -Xms16m: the live heap is
# ~11 MB. -Xmn4m: a young generation of 4 MB, 3-4 MiB less than the default at 1.6-2.4 against 1.1-1.4 %
# of the time in GC (RSA checks in AWS-LC allocate little on the Java heap).
JAVA_OPTS="${JAVA_OPTS:--Xms16m -Xmx128m -XX:MaxMetaspaceSize=96m -XX:ReservedCodeCacheSize=48m -XX:MaxDirectMemorySize=32m -Xss512k -Xmn4m -XX:+UseSerialGC -XX:TieredStopAtLevel=1}"
CP="target/paynotify.jar:target/lib/*"
if [ -d target/embedded-db ]; then
  CP="$CP:target/embedded-db/*"
fi
# Always, whatever JAVA_OPTS says: after an OutOfMemoryError some threads may be dead while the port stays
# open, answering nothing; exiting (code 3) lets systemd (Restart=on-failure) start a healthy one.
# shellcheck disable=SC2086
exec java -XX:+ExitOnOutOfMemoryError $JAVA_OPTS -Dpaynotify.caller_dir="$CALLER_DIR" -cp "$CP" paynotify.cli.Main serve "$@"
