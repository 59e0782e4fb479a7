package paynotify.store;

import io.vertx.core.Future;
import io.vertx.sqlclient.SqlConnection;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a session adds to its setup when the server is a node of a MariaDB Galera cluster: causal
 * reads. A commit on one node is applied on the others a moment later, so without them the duplicate
 * pre-check on node B may miss a key node A has just committed, and a refund may not see the payment
 * booked elsewhere. Locking reads are local to a node and decide nothing there (certification does),
 * so every read that decides something must see what the cluster committed before it.
 *
 * <p>Asked once per pool, on its first session: a single server (MariaDB, MySQL, which has no
 * wsrep_on at all) adds nothing and runs exactly as before.
 */
public final class GaleraSessions {
  private static final Logger LOG = LoggerFactory.getLogger(GaleraSessions.class);
  /** SHOW, not SELECT @@wsrep_on: MySQL has no such variable and would fail the session. */
  public static final String DETECT = "SHOW VARIABLES LIKE 'wsrep_on'";
  /** Each read (SELECT, SHOW, BEGIN) first waits until this node applied all the cluster committed. */
  public static final String CAUSAL_READS = "SET SESSION wsrep_sync_wait = 1";

  private volatile List<String> extra; // null until a session has asked the server

  /** Whether the value {@link #DETECT} read says wsrep (Galera replication) is on. */
  public static boolean isOn(String wsrepOn) {
    return "ON".equalsIgnoreCase(wsrepOn);
  }

  /** Whether the sessions found a Galera node (false until the first session asked). */
  boolean found() {
    List<String> known = extra;
    return known != null && !known.isEmpty();
  }

  /** {@code setup} and what this server needs after it. */
  Future<List<String>> statements(SqlConnection conn, List<String> setup) {
    List<String> known = extra;
    Future<List<String>> decided = known != null ? Future.succeededFuture(known)
        : conn.query(DETECT).execute().map(rows -> {
          boolean galera = rows.size() > 0 && isOn(rows.iterator().next().getString(1));
          if (galera) {
            LOG.info("the database is a Galera node (wsrep_on): sessions read causally ({})", CAUSAL_READS);
          }
          extra = galera ? List.of(CAUSAL_READS) : List.of();
          return extra;
        });
    return decided.map(more -> {
      List<String> all = new ArrayList<>(setup);
      all.addAll(more);
      return all;
    });
  }
}
