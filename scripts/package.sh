#!/usr/bin/env bash
# Builds the release into target/release/:
#   paynotify-<version>-linux-x86_64.tar.gz  one folder paynotify-<version>/: bin/ conf/ lib/ migrations/
#                                            runtime/ (its own Java, jlink) systemd/ README
#   paynotify_<version>_amd64.deb            the same tree in /opt/paynotify, /etc/paynotify/application.yaml
#                                            (a conffile), the unit in /lib/systemd/system (jdeb: no root, no dpkg)
#   SHA256SUMS                               of both
# Needs a JDK 17 with jlink and its jmods (JAVA_HOME, else the one of the javac on PATH) and Maven.
set -euo pipefail
cd "$(dirname "$0")/.."

JDK="${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")}"
[ -d "$JDK/jmods" ] || { echo "package.sh: $JDK has no jmods/: jlink needs a full JDK (Debian: openjdk-17-jdk-headless)" >&2; exit 2; }

mvn -B -q -Dmaven.test.skip=true package >&2
VERSION="$("$JDK/bin/java" -cp "target/paynotify.jar:target/lib/*" paynotify.cli.Main --version | sed 's/^paynotify //')"
NAME="paynotify-$VERSION"
OUT=target/release
TREE="$OUT/$NAME"
rm -rf "$OUT"
mkdir -p "$TREE"/{bin,conf,lib,systemd}

# The modules the service and the tools use. jdeps finds most; these it does not see or sees wrong:
#   java.desktop   java.beans, for the YAML reader (snakeyaml) and micrometer
#   jdk.charsets   GBK (Alipay's bills and notifications), windows-1252 (PayPal)
#   jdk.crypto.ec  elliptic-curve TLS, what most HTTPS servers (the platforms, the alert targets) offer
#   jdk.naming.dns DNS for JNDI, which netty's resolver may ask for the name servers
#   jdk.zipfs      not needed: bills are read with java.util.zip (java.base)
MODULES=java.base,java.desktop,java.logging,java.management,java.naming,java.security.jgss,java.security.sasl
MODULES=$MODULES,java.sql,java.transaction.xa,java.xml,jdk.charsets,jdk.crypto.ec,jdk.jfr,jdk.management
MODULES=$MODULES,jdk.naming.dns,jdk.net,jdk.unsupported
"$JDK/bin/jlink" --add-modules "$MODULES" --strip-debug --no-header-files --no-man-pages \
  --output "$TREE/runtime"
# Not compressed (--compress): its download is smaller so (gzip does better: 27 against 34 MB), and classes
# load faster. Class data sharing for the runtime's own classes: a faster start of the service and every tool.
"$TREE/runtime/bin/java" -Xshare:dump >/dev/null

cp target/paynotify.jar target/lib/*.jar "$TREE/lib/"
cp -r migrations "$TREE/"
cp conf/application.yaml "$TREE/conf/"
cp release/bin/paynotify scripts/java-options.sh "$TREE/bin/"
cp release/paynotify.service "$TREE/systemd/"
JAVA_VERSION="$("$TREE/runtime/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.runtime.version = //p')"
sed -e "s/@VERSION@/$VERSION/g" -e "s/@JAVA@/$JAVA_VERSION/g" release/README > "$TREE/README"
chmod 0755 "$TREE/bin/paynotify"
chmod 0644 "$TREE/bin/java-options.sh"

# One owner (root), the last commit's time and modes that nobody but root can write (whatever this builder's
# umask made of the tree) for every entry: the same tree gives the same listing.
EPOCH="$(git log -1 --format=%ct 2>/dev/null || date +%s)"
tar --owner=0 --group=0 --numeric-owner --mode=u+rwX,go=rX --sort=name --mtime="@$EPOCH" -C "$OUT" \
  -czf "$OUT/$NAME-linux-x86_64.tar.gz" "$NAME"
mvn -B -q -Pdeb org.vafer:jdeb:1.14:jdeb >&2
rm -rf "$TREE"
(cd "$OUT" && sha256sum "$NAME-linux-x86_64.tar.gz" "paynotify_${VERSION}_amd64.deb" > SHA256SUMS && cat SHA256SUMS)
