package paynotify.reconcile.daily;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import paynotify.channel.Money;

/**
 * What a day's close found, read off the JSON report {@code reconcile --json} wrote: the bill's totals, the
 * findings by kind and how many were repaired; then the day's times the database refused writes, a line each
 * ({@link DayRefusals}). The report is read as a stream, its findings skipped: a day of many findings costs no
 * memory here.
 */
record CloseSummary(long payments, long paymentCents, long refunds, long refundCents, Map<String, Long> findings,
    long repaired, List<String> refusals) {

  static CloseSummary read(Path report) throws IOException {
    long[] read = new long[4];
    Map<String, Long> counts = new LinkedHashMap<>();
    long repaired = 0;
    boolean finished = false;
    try (JsonParser json = new JsonFactory().createParser(report.toFile())) {
      if (json.nextToken() != JsonToken.START_OBJECT) {
        throw new IOException(report + ": not a reconcile --json report");
      }
      while (json.nextToken() == JsonToken.FIELD_NAME) {
        String field = json.currentName();
        json.nextToken();
        switch (field) {
          case "read" -> {
            while (json.nextToken() == JsonToken.FIELD_NAME) {
              String name = json.currentName();
              json.nextToken();
              switch (name) {
                case "payment_rows" -> read[0] = json.getLongValue();
                case "payment_cents" -> read[1] = json.getLongValue();
                case "refund_rows" -> read[2] = json.getLongValue();
                case "refund_cents" -> read[3] = json.getLongValue();
                default -> json.skipChildren();
              }
            }
          }
          case "counts" -> {
            while (json.nextToken() == JsonToken.FIELD_NAME) {
              String kind = json.currentName();
              json.nextToken();
              counts.put(kind, json.getLongValue());
            }
          }
          case "repaired" -> repaired = json.getLongValue();
          case "clean" -> finished = true; // written last, once every finding is committed
          default -> json.skipChildren(); // the findings themselves, one by one
        }
      }
    }
    if (!finished) {
      throw new IOException(report + ": the report stops before its end: the run did not finish");
    }
    return new CloseSummary(read[0], read[1], read[2], read[3], Map.copyOf(counts), repaired, List.of());
  }

  CloseSummary withRefusals(List<String> lines) {
    return new CloseSummary(payments, paymentCents, refunds, refundCents, findings, repaired, List.copyOf(lines));
  }

  JsonObject toJson() {
    JsonObject json = new JsonObject().put("payments", payments).put("payment_cents", paymentCents)
        .put("refunds", refunds).put("refund_cents", refundCents).put("findings", new JsonObject(Map.copyOf(findings)))
        .put("repaired", repaired);
    return refusals.isEmpty() ? json : json.put("write_refusals", new JsonArray(refusals));
  }

  /**
   * One line, e.g. {@code 38 payments 1,204.00, 1 refund 5.00 · found 1 missing_local (1 repaired: booked)}, and
   * a line after it for each time the database refused writes.
   */
  String line() {
    String totals = payments + (payments == 1 ? " payment " : " payments ") + Money.format(paymentCents) + ", "
        + refunds + (refunds == 1 ? " refund " : " refunds ") + Money.format(refundCents);
    String found = findings.isEmpty() ? " · nothing found" : " · found " + findings.entrySet().stream()
        .sorted(Map.Entry.comparingByKey()).map(e -> e.getValue() + " " + e.getKey()).collect(Collectors.joining(", "))
        + (repaired == 0 ? "" : " (" + repaired + " repaired: booked)");
    return totals + found + refusals.stream().map(l -> "\n" + l).collect(Collectors.joining());
  }
}
