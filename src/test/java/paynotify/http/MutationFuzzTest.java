package paynotify.http;

import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import paynotify.config.AppConfig;
import paynotify.testsupport.ChannelFixture;
import paynotify.testsupport.Http;
import paynotify.testsupport.Mutants.Mutant;
import paynotify.testsupport.Mutants;
import paynotify.testsupport.Notification;
import paynotify.testsupport.RawRequest.Answer;
import paynotify.testsupport.RawRequest;
import paynotify.testsupport.ServiceTestBase;
import paynotify.testsupport.TestService;

/**
 * Hundreds of mutated copies of one genuine payment on every channel ({@link Mutants}), over real HTTP to the
 * running service on the test database. Every copy is answered, none with a 5xx (by NotifyFate's rule a 5xx is a bug
 * of ours or a database that failed, and the platform retries it forever), and nothing is booked but the genuine
 * payment; /health answers 200 after.
 *
 * <p>The copies go first, while the order is unpaid, then the genuine notification: a copy that passed for genuine
 * with anything changed (another order, trade, amount or status) would book it, or take the trade's key so that
 * the genuine one is refused or becomes a conflict, and either shows in the tables; sent after the genuine booking,
 * such a copy would meet the duplicate check and prove less. A copy that is the genuine payment in another wrapping
 * (a header, a chunked body, an escape that decodes to the same text) may book it first: what counts is that the
 * tables end holding exactly the genuine payment.
 *
 * <p>Each channel has its seed, and copy {@code i} of a seed is the same on every run (the genuine notification
 * carries a fresh timestamp and nonce, as the platforms' checks need). A failure names seed and copies; replay with
 * {@code -Dpaynotify.fuzz.seed=<seed> -Dpaynotify.fuzz.case=<i>}, or fuzz deeper with
 * {@code -Dpaynotify.fuzz.cases=5000}.
 */
class MutationFuzzTest extends ServiceTestBase {
  private static final int CASES = Integer.getInteger("paynotify.fuzz.cases", 300);
  private static final Long SEED = Long.getLong("paynotify.fuzz.seed");
  private static final Integer ONLY_CASE = Integer.getInteger("paynotify.fuzz.case");
  /** Failures shown in full; the rest are counted. */
  private static final int SHOWN = 25;
  private static final Duration REQUEST_TIMEOUT =
      AppConfig.from(TestService.configuration(new JsonObject()), "test", Map.of()).http().requestTimeout();
  private static final String ORDER = "F12";
  private static final String TRADE = "T-F12";
  private static final long CENTS = 995;

  static Stream<ChannelFixture> channels() {
    return ChannelFixture.all().stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("channels")
  void mutatedCopiesOfAGenuinePaymentGetNo5xxAndBookNothingButIt(ChannelFixture ch) throws Exception {
    long seed = SEED != null ? SEED : 2026_12_40L * 31 + ch.name().hashCode();
    db.insertOrder(ORDER, CENTS);
    Notification genuine = ch.payment(ORDER, TRADE, CENTS, 0);
    RawRequest original = RawRequest.of(genuine);

    List<String> failures = new ArrayList<>();
    int from = ONLY_CASE != null ? ONLY_CASE : 0;
    int to = ONLY_CASE != null ? ONLY_CASE + 1 : CASES;
    for (int i = from; i < to; i++) {
      Mutant mutant = Mutants.of(original, seed, i);
      // a little beyond the service's own limit, whose 503 would then be seen as a 5xx
      Answer answer = mutant.request().send(service.port(), REQUEST_TIMEOUT.plusSeconds(2));
      if (!answer.answered() || answer.status() >= 500 || answer.millis() > REQUEST_TIMEOUT.toMillis()) {
        failures.add("case " + i + " [" + mutant.kind() + "] -> "
            + (answer.answered() ? answer.status() + " " + answer.body().strip() : answer.body())
            + " in " + answer.millis() + " ms\n  " + mutant.request().describe());
      }
    }
    Http.Reply genuineReply = service.send(genuine);
    service.awaitLogRecorded();

    SoftAssertions soft = new SoftAssertions();
    soft.assertThat(failures)
        .withFailMessage("%s: %d of %d mutated copies answered 5xx, late or not at all (seed %d; replay one with"
            + " -Dpaynotify.fuzz.seed=%d -Dpaynotify.fuzz.case=<case>)%s:%n%s", ch, failures.size(), to - from, seed,
            seed, failures.size() > SHOWN ? "; the first " + SHOWN + " shown" : "",
            String.join("\n", failures.subList(0, Math.min(SHOWN, failures.size()))))
        .isEmpty();
    soft.assertThat(genuineReply).as("the genuine notification, after the copies").matches(ch.success());
    soft.assertThat(db.column("SELECT CONCAT(channel, ' ', order_no, ' ', trade_no, ' ', amount_cents) FROM payments"))
        .as("payments").containsExactly(ch.platform() + " " + ORDER + " " + TRADE + " " + CENTS);
    soft.assertThat(db.column("SELECT idem_key FROM idempotent_keys")).as("idempotency keys")
        .containsExactly(ch.platform() + ":pay:" + TRADE);
    soft.assertThat(db.column("SELECT CONCAT(kind, ': ', detail) FROM anomalies")).as("anomalies").isEmpty();
    soft.assertThat(db.count("SELECT COUNT(*) FROM refunds")).as("refunds").isZero();
    soft.assertThat(db.column("SELECT CONCAT(order_no, ' ', amount_cents, ' ', status, ' ', channel, ' ', trade_no)"
        + " FROM orders")).as("orders").containsExactly(ORDER + " " + CENTS + " paid " + ch.platform() + " " + TRADE);
    // no copy recorded as ignored, an anomaly, a conflict or an error of ours
    soft.assertThat(db.column("SELECT DISTINCT outcome FROM notify_log WHERE outcome NOT IN ('rejected', 'duplicate')"))
        .as("outcomes besides refusals and duplicates").containsExactly("processed");
    soft.assertThat(db.count("SELECT COUNT(*) FROM notify_log WHERE outcome = 'processed'")).as("processed")
        .isEqualTo(1);
    soft.assertThat(Http.get(service.port(), "/health").status()).as("/health after").isEqualTo(200);
    soft.assertAll();
  }
}
