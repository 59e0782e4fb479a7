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

# Frugal defaults for a small VPS: the service needs well under 256 MB resident.
JAVA_OPTS="${JAVA_OPTS:--Xms32m -Xmx128m -XX:MaxMetaspaceSize=96m -XX:ReservedCodeCacheSize=48m -XX:MaxDirectMemorySize=32m -Xss512k -XX:+UseSerialGC}"
CP="target/paynotify.jar:target/lib/*"
if [ -d target/embedded-db ]; then
  CP="$CP:target/embedded-db/*"
fi
# shellcheck disable=SC2086
exec java $JAVA_OPTS -Dpaynotify.caller_dir="$CALLER_DIR" -cp "$CP" paynotify.app.Main serve "$@"
