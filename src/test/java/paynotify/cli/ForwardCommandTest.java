package paynotify.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import paynotify.testsupport.Cli;
import paynotify.testsupport.DatabaseTestBase;

/** `forward list`, `forward retry` and `forward replay` on forward_events rows written here as the relay leaves them. */
class ForwardCommandTest extends DatabaseTestBase {
  @BeforeEach
  void emptyTheOutbox() {
    db.update("DELETE FROM forward_events"); // not among TestDatabase's tables (yet)
  }

  // Due times and leases of forward_events are UTC, whatever the sessions' database.time_zone.
  private static final String NOW = "UTC_TIMESTAMP(3)";

  /** A row in {@code state}, its lease held and due in an hour, as the relay might leave it. */
  private static long event(String eventId, String type, String order, String state, int attempts, String error) {
    db.update("INSERT INTO forward_events (event_id, endpoint, type, order_no, body, state, attempts, next_attempt_at,"
        + " lease_owner, lease_until, last_error, delivered_at) VALUES (?, 'site', ?, ?, '{}', ?, ?,"
        + " " + NOW + " + INTERVAL 1 HOUR, 'other-instance', " + NOW + " + INTERVAL 1 HOUR, ?, ?)", eventId, type,
        order, state, attempts, error, state.equals("delivered") ? "2026-11-30 20:01:02" : null);
    return db.count("SELECT id FROM forward_events WHERE event_id = ?", eventId);
  }

  private static String row(long id) {
    return db.string("SELECT CONCAT_WS(' ', state, attempts,"
        + " next_attempt_at BETWEEN " + NOW + " - INTERVAL 1 MINUTE AND " + NOW + "," // due now: 1
        + " COALESCE(lease_owner, '-'), COALESCE(lease_until, '-')) FROM forward_events WHERE id = ?", id);
  }

  private static String evt(int n) {
    return String.format("evt_%032x", n);
  }

  @Test
  void listShowsEachEventOnOneLineNewestFirstAndFilters() {
    long delivered = event(evt(1), "payment.succeeded", "O1", "delivered", 1, null);
    long failed = event(evt(2), "anomaly.created", "O2", "failed", 12, "HTTP 500\nfrom the site");
    long pending = event(evt(3), "refund.succeeded", "O1", "pending", 2, "connect timed out");
    long noOrder = event(evt(4), "anomaly.created", null, "failed", 12, "HTTP 404");

    Cli.Result all = Cli.run("forward", "list");
    assertThat(all.exit()).as(all.err()).isZero();
    List<String> lines = all.out().lines().toList();
    assertThat(lines).hasSize(5);
    assertThat(lines.get(0)).startsWith("#" + noOrder + " ").contains(evt(4)).contains("order -")
        .endsWith("last error: HTTP 404");
    assertThat(lines.get(1)).startsWith("#" + pending + " ").contains(evt(3), "refund.succeeded", "pending",
        " 2 attempts", "next 20", "order O1", "last error: connect timed out");
    assertThat(lines.get(2)).startsWith("#" + failed + " ").contains("failed", "12 attempts")
        .endsWith("last error: HTTP 500 from the site"); // one line, whatever the error held
    assertThat(lines.get(3)).startsWith("#" + delivered + " ").contains("delivered 2026-11-30 20:01:02")
        .doesNotContain("last error");
    assertThat(lines.get(4)).isEqualTo("4 events");

    assertThat(Cli.run("forward", "list", "--failed").out().lines())
        .extracting(line -> line.split("\\s+")[0]).containsExactly("#" + noOrder, "#" + failed, "2");
    assertThat(Cli.run("forward", "list", "--order", "O1").out().lines())
        .extracting(line -> line.split("\\s+")[0]).containsExactly("#" + pending, "#" + delivered, "2");
    assertThat(Cli.run("forward", "list", "--failed", "--order", "O1").out()).isEqualTo("no events failed\n");
    assertThat(Cli.run("forward", "list", "--limit", "1").out().lines())
        .extracting(line -> line.split("\\s+")[0]).containsExactly("#" + noOrder, "1");
  }

  @Test
  void replaySendsDeliveredAndFailedEventsAgainAndLeavesPendingOnesAlone() {
    long delivered = event(evt(1), "payment.succeeded", "O1", "delivered", 1, null);
    long failed = event(evt(2), "refund.succeeded", "O1", "failed", 12, "HTTP 500");
    long pending = event(evt(3), "payment.succeeded", "O2", "pending", 2, "HTTP 502");
    long otherOrder = event(evt(4), "payment.succeeded", "O3", "delivered", 1, null);
    String pendingBefore = row(pending);

    Cli.Result one = Cli.run("forward", "replay", "--event", evt(1));
    assertThat(one.exit()).as(one.err()).isZero();
    assertThat(one.out()).isEqualTo("sending 1 event again: pending, due now\n");
    assertThat(row(delivered)).isEqualTo("pending 0 1 - -"); // due now, unleased: any instance sends it
    assertThat(db.string("SELECT delivered_at IS NULL FROM forward_events WHERE id = ?", delivered)).isEqualTo("1");

    Cli.Result order = Cli.run("forward", "replay", "--order", "O1");
    assertThat(order.out()).isEqualTo("sending 1 event again: pending, due now\n"); // the failed one; evt 1 is pending
    assertThat(row(failed)).isEqualTo("pending 0 1 - -");
    assertThat(row(pending)).isEqualTo(pendingBefore);
    assertThat(row(otherOrder)).startsWith("delivered ");

    Cli.Result again = Cli.run("forward", "replay", "--event", "#" + pending);
    assertThat(again.exit()).isZero();
    assertThat(again.out()).isEqualTo("event #" + pending + " (site) is pending: it is being sent already\n");
    assertThat(row(pending)).isEqualTo(pendingBefore);

    Cli.Result range = Cli.run("forward", "replay", "--since", "2000-01-01");
    assertThat(range.out()).isEqualTo("sending 1 event again: pending, due now\n");
    assertThat(row(otherOrder)).isEqualTo("pending 0 1 - -");
    assertThat(Cli.run("forward", "replay", "--since", "2000-01-01", "--until", "2000-01-02").out())
        .startsWith("nothing to send again");

    Cli.Result none = Cli.run("forward", "replay", "--event", evt(99));
    assertThat(none.exit()).isEqualTo(2);
    assertThat(none.err()).contains("no forward event " + evt(99));
    assertThat(Cli.run("forward", "replay", "--since", "yesterday").err()).contains("--since: 'yesterday' is not a date");
  }

  @Test
  void retryRequeuesAFailedEventOnceAndLeavesTheOthersAlone() {
    long failed = event(evt(1), "payment.succeeded", "O1", "failed", 12, "HTTP 500");
    long other = event(evt(2), "payment.succeeded", "O2", "failed", 12, "HTTP 500");
    long pending = event(evt(3), "payment.succeeded", "O3", "pending", 3, "HTTP 502");
    long delivered = event(evt(4), "payment.succeeded", "O4", "delivered", 1, null);
    String pendingBefore = row(pending);
    String deliveredBefore = row(delivered);

    Cli.Result retry = Cli.run("forward", "retry", String.valueOf(failed));
    assertThat(retry.exit()).as(retry.err()).isZero();
    assertThat(retry.out()).isEqualTo("event #" + failed + " requeued: pending, due now\n");
    assertThat(row(failed)).isEqualTo("pending 0 1 - -"); // due now, lease cleared
    assertThat(row(other)).startsWith("failed 12");

    Cli.Result again = Cli.run("forward", "retry", "#" + failed);
    assertThat(again.exit()).isZero();
    assertThat(again.out()).startsWith("event #" + failed + " (site) is pending (0 attempts, next 20").endsWith(": nothing to do\n");
    assertThat(row(failed)).isEqualTo("pending 0 1 - -");

    Cli.Result onPending = Cli.run("forward", "retry", String.valueOf(pending));
    assertThat(onPending.exit()).isZero();
    assertThat(onPending.out()).startsWith("event #" + pending + " (site) is pending (3 attempts").endsWith("nothing to do\n");
    assertThat(row(pending)).isEqualTo(pendingBefore); // its lease and schedule are the relay's

    Cli.Result onDelivered = Cli.run("forward", "retry", evt(4)); // by its evt_ id too
    assertThat(onDelivered.exit()).isZero();
    assertThat(onDelivered.out()).isEqualTo("event #" + delivered + " (site) is delivered: nothing to do\n");
    assertThat(row(delivered)).isEqualTo(deliveredBefore);

    assertThat(Cli.run("forward", "retry", evt(2)).out()).isEqualTo("event #" + other + " requeued: pending, due now\n");
  }

  @Test
  void anUnknownEventIsExitTwoWithALine() {
    for (String id : List.of("999999", evt(9), "nonsense")) {
      Cli.Result r = Cli.run("forward", "retry", id);
      assertThat(r.exit()).as(id).isEqualTo(2);
      assertThat(r.err()).isEqualTo("paynotify: no forward event " + id + "\n");
      assertThat(r.out()).isEmpty();
    }
    // an ID and --all-failed, or neither: picocli's usage error, exit 2 as well
    assertThat(Cli.run("forward", "retry").exit()).isEqualTo(2);
    assertThat(Cli.run("forward", "retry", "1", "--all-failed").exit()).isEqualTo(2);
  }

  @Test
  void allFailedRequeuesEveryFailedEventOnce() {
    List<Long> failed = List.of(event(evt(1), "payment.succeeded", "O1", "failed", 12, "HTTP 500"),
        event(evt(2), "anomaly.created", null, "failed", 12, "timeout"),
        event(evt(3), "order.closed", "O3", "failed", 12, "HTTP 403"));
    long pending = event(evt(4), "payment.succeeded", "O4", "pending", 1, "HTTP 500");
    long delivered = event(evt(5), "payment.succeeded", "O5", "delivered", 1, null);
    String pendingBefore = row(pending);
    String deliveredBefore = row(delivered);

    Cli.Result all = Cli.run("forward", "retry", "--all-failed");
    assertThat(all.exit()).as(all.err()).isZero();
    assertThat(all.out()).isEqualTo("requeued 3 failed events\n");
    failed.forEach(id -> assertThat(row(id)).isEqualTo("pending 0 1 - -"));
    assertThat(row(pending)).isEqualTo(pendingBefore);
    assertThat(row(delivered)).isEqualTo(deliveredBefore);

    Cli.Result again = Cli.run("forward", "retry", "--all-failed");
    assertThat(again.exit()).isZero();
    assertThat(again.out()).isEqualTo("no failed events: nothing to do\n");
    assertThat(db.count("SELECT COUNT(*) FROM forward_events WHERE state = 'pending'")).isEqualTo(4);
  }
}
