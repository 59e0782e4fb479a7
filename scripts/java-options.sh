# The JVM options of paynotify's processes, sourced by scripts/start.sh, scripts/paynotify and the
# release's bin/paynotify (scripts/package.sh copies this file there). JAVA_OPTS, when set, replaces them.

# serve: frugal defaults for a small VPS (scripts/bench-memory.sh measures them): 94 MiB PSS under load at 32
# concurrent notifications. TieredStopAtLevel=1 compiles with C1 only: C2's compile arenas, profiles and
# code cost 35-45 MiB under load and most of the CPU of the first thousands of notifications after a
# start; its price is CPU once warm. A busy site can drop it through JAVA_OPTS. -Xms16m: the live heap is
# ~11 MB. -Xmn4m: a young generation of 4 MB, 3-4 MiB less than the default at 1.6-2.4 against 1.1-1.4 %
# of the time in GC (RSA checks in AWS-LC allocate little on the Java heap).
SERVE_JAVA_OPTS="-Xms16m -Xmx128m -XX:MaxMetaspaceSize=96m -XX:ReservedCodeCacheSize=48m -XX:MaxDirectMemorySize=32m -Xss512k -Xmn4m -XX:+UseSerialGC -XX:TieredStopAtLevel=1"

# Always added to serve, whatever JAVA_OPTS says: after an OutOfMemoryError some threads may be dead while
# the port stays open, answering nothing; exiting (code 3) lets systemd (Restart=on-failure) start a healthy one.
SERVE_ALWAYS="-XX:+ExitOnOutOfMemoryError"

# The tools (reconcile, status, ...): a batch job on two cores: the parallel collector keeps the reader, the
# loader and the database busy.
TOOL_JAVA_OPTS="-Xms32m -Xmx128m -XX:MaxMetaspaceSize=96m -XX:+UseParallelGC"

# The daily close's child, `paynotify reconcile --fetch` started by the service (its flags are
# reconcile/daily/CloseProcess.JAVA_OPTIONS, not read from here): the tools' -Xmx and metaspace, but serve's serial
# collector and C1, and exit on out of memory, since it runs beside the service on its cores. Change both together.
