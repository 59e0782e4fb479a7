package paynotify.http;

import org.junit.jupiter.api.extension.ExtendWith;
import paynotify.testsupport.ReadCommittedServer;

/** Every payment booking scenario of every channel again on a server whose default isolation is READ COMMITTED. */
@ExtendWith(ReadCommittedServer.class)
class ChannelContractReadCommittedTest extends ChannelContractTest {}
