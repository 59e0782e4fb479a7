#!/usr/bin/env bash
# What refusing each hostile form body shape costs (FormBody.decode, Alipay's and epay's whole verify),
# 64 KiB and 1 MiB, with the JVM settings of scripts/start.sh (C1 only, serial GC, 128 MiB).
#   scripts/bench-form.sh [SIZE ...]              this tree's FormBody (sizes in bytes: 65536 1048576)
#   scripts/bench-form.sh --rev REV [SIZE ...]    REV's FormBody (compiled from git) in its place, for a before/after
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
  shift 2
fi
exec java -Xmx128m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -cp "$CP" paynotify.bench.FormBodyBench "$@"
