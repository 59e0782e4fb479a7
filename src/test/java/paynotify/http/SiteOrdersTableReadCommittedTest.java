package paynotify.http;

import org.junit.jupiter.api.extension.ExtendWith;
import paynotify.testsupport.ReadCommittedServer;

/** The site tables' scenarios again on a server whose default isolation is READ COMMITTED. */
@ExtendWith(ReadCommittedServer.class)
class SiteOrdersTableReadCommittedTest extends SiteOrdersTableTest {}
