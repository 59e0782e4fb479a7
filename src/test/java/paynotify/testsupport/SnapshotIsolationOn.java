package paynotify.testsupport;

/** {@code innodb_snapshot_isolation=ON}, as MariaDB 11.6+ (Debian 13's 11.8) has it by default. */
public final class SnapshotIsolationOn extends ServerDefault {
  @Override
  ServerSetting apply(TestDatabase db) {
    return ServerSetting.exists(db, "innodb_snapshot_isolation")
        ? ServerSetting.set(db, "innodb_snapshot_isolation", "ON") : null;
  }
}
