package paynotify.recovery;

import org.junit.jupiter.api.extension.ExtendWith;
import paynotify.testsupport.ReadCommittedServer;

/** Confirm before booking again on a server whose default isolation is READ COMMITTED. */
@ExtendWith(ReadCommittedServer.class)
class EpayConfirmBeforeBookReadCommittedTest extends EpayConfirmBeforeBookTest {}
