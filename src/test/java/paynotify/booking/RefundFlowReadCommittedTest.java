package paynotify.booking;

import org.junit.jupiter.api.extension.ExtendWith;
import paynotify.testsupport.ReadCommittedServer;

/** Every refund scenario again on a server whose default isolation is READ COMMITTED. */
@ExtendWith(ReadCommittedServer.class)
class RefundFlowReadCommittedTest extends RefundFlowTest {}
