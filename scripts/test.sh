#!/usr/bin/env bash
# Runs the whole test suite. Needs only a JDK and Maven: the tests start an embedded MariaDB.
# PAYNOTIFY_TEST_DB=host:port runs them against that server instead (user root, password in
# PAYNOTIFY_TEST_DB_PASSWORD; a database paynotify_test is dropped and recreated there).
# Extra arguments go to Maven, e.g. scripts/test.sh -Dgroups=db  or  -Dtest=KeyPurgeTest
set -euo pipefail
cd "$(dirname "$0")/.."
exec mvn -B verify "$@"
