package paynotify.testsupport;

/** A server whose default isolation is READ COMMITTED, as on several managed MySQL services. */
public final class ReadCommittedServer extends ServerDefault {
  @Override
  ServerSetting apply(TestDatabase db) {
    return ServerSetting.isolation(db, "READ-COMMITTED");
  }
}
