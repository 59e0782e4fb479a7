package paynotify.recovery;

import io.vertx.core.Future;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import paynotify.channel.NotifyEvent;

/**
 * How a signed payment's confirmation is asked for as its notification waits (confirm_before_book): within a time of
 * its own, so that the reply, and the wait it records, go before http.request_timeout_ms answers for it; and within a
 * budget of its own (recovery.max_confirmations_per_minute), as whoever holds the key decides how many come: a flood
 * of them neither spends the sweeper's questions nor sends the platform's key in a query per request. Spent, a
 * payment is not asked about: it waits, as one its platform did not confirm.
 */
public final class Confirmations {
  /** What the reply keeps of http.request_timeout_ms after the question: recording the wait, answering. */
  private static final Duration AFTER_ASKING = Duration.ofSeconds(1);

  private final Function<NotifyEvent, Future<String>> ask;
  private final long withinMillis;
  private final int perMinute;
  private final QueryBudget budget;

  /**
   * @param ask     why a payment is not confirmed by its platform's query, null when it is
   *                ({@link Recovery#unconfirmed})
   * @param timeout recovery.timeout_ms
   * @param request http.request_timeout_ms
   */
  public Confirmations(Function<NotifyEvent, Future<String>> ask, Duration timeout, Duration request, int perMinute) {
    this.ask = ask;
    Duration reply = request.minus(AFTER_ASKING);
    Duration within = reply.compareTo(request.dividedBy(2)) < 0 ? request.dividedBy(2) : reply;
    this.withinMillis = Math.min(timeout.toMillis(), within.toMillis());
    this.perMinute = perMinute;
    this.budget = new QueryBudget(perMinute);
  }

  /** Why {@code payment} is not confirmed (not asked, no answer in time, or the platform's reason); null if it is. */
  public Future<String> why(NotifyEvent payment) {
    if (!budget.takeForSweep()) {
      return Future.succeededFuture("not asked: more than " + perMinute + " signed notifications a minute wait for"
          + " their platform's confirmation (recovery.max_confirmations_per_minute); the sweeper or the next delivery"
          + " asks again");
    }
    return ask.apply(payment).timeout(withinMillis, TimeUnit.MILLISECONDS).recover(err ->
        !(err instanceof TimeoutException) ? Future.failedFuture(err)
        : Future.succeededFuture(payment.platform().code() + " did not confirm trade " + payment.tradeNo() + " within "
            + withinMillis + " ms (recovery.timeout_ms, kept below http.request_timeout_ms): try again later"));
  }
}
