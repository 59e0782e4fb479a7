package paynotify.recovery;

import org.junit.jupiter.api.extension.ExtendWith;
import paynotify.testsupport.ReadCommittedServer;

/** TokenPay's confirm before booking again on a server whose default isolation is READ COMMITTED. */
@ExtendWith(ReadCommittedServer.class)
class TokenPayConfirmBeforeBookReadCommittedTest extends TokenPayConfirmBeforeBookTest {}
