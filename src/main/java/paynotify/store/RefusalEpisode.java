package paynotify.store;

import java.time.Instant;
import java.util.Map;

/**
 * An ended time during which the database refused writes ({@link DbErrors#refusal}): what the owner is told when
 * it is over, what the daily close and the status read back.
 *
 * @param reason            the first refusal's, e.g. {@code disk full (1114)}
 * @param since             the first refusal
 * @param until             the last refusal
 * @param refused           notifications answered failure because of it
 * @param refusedByEndpoint those by endpoint ({@code alipay}, {@code epusdt}, ...)
 */
public record RefusalEpisode(String reason, Instant since, Instant until, long refused,
    Map<String, Long> refusedByEndpoint) {}
