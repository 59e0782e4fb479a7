#!/usr/bin/env bash
# CPU per RSA signature check, the JDK's against AWS-LC's (what RsaSignatureCheck tries first), with the
# compiler settings of scripts/start.sh (C1 only); rounds alternate, the last ones are the warm figures.
#   scripts/bench-rsa.sh
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -B -q -DskipTests package test-compile dependency:build-classpath \
  -Dmdep.outputFile=target/test-classpath.txt -Dmdep.includeScope=test >&2
exec java -Xmx128m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 \
  -cp "target/test-classes:target/classes:$(cat target/test-classpath.txt)" paynotify.bench.RsaBench
