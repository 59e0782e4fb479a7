package paynotify.reconcile;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.EnumMap;
import java.util.Map;
import paynotify.channel.Money;
import paynotify.reconcile.Finding.Kind;
import paynotify.store.SqlQueries;

/**
 * Writes findings as they come, as text lines or one JSON document, and with {@code record}
 * stores each one as an anomaly, in one transaction committed at the end (running the same bill
 * again adds nothing: anomalies.dedupe_key names each finding).
 */
public final class Report implements Reconciliation.FindingSink, AutoCloseable {
  private final PrintWriter text;
  private final JsonGenerator json;
  private final Connection record;
  private final PreparedStatement insert;
  private final Map<Kind, Long> counts = new EnumMap<>(Kind.class);
  private int pending;
  private long repaired;

  /**
   * @param asJson one JSON document instead of text lines
   * @param record a connection of its own (the reconciliation streams on the other), or null
   */
  public Report(PrintWriter out, boolean asJson, Connection record) throws IOException, SQLException {
    this.text = asJson ? null : out;
    this.json = asJson ? new JsonFactory().createGenerator(out).useDefaultPrettyPrinter()
        .disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET) : null;
    this.record = record;
    if (record != null) {
      record.setAutoCommit(false);
      this.insert = record.prepareStatement(SqlQueries.INSERT_ANOMALY);
    } else {
      this.insert = null;
    }
    if (json != null) {
      json.writeStartObject();
    }
  }

  /** What was read: the heading of a bill's report. */
  public void bill(String channel, String file, Bill.Summary s) throws IOException {
    if (json != null) {
      json.writeStringField("channel", channel);
      json.writeStringField("bill", file);
      json.writeObjectFieldStart("window");
      json.writeStringField("from", s.from().format(BillCsv.TIME));
      json.writeStringField("to", s.to().format(BillCsv.TIME));
      json.writeEndObject();
      json.writeObjectFieldStart("read");
      json.writeNumberField("payment_rows", s.paymentRows());
      json.writeNumberField("refund_rows", s.refundRows());
      json.writeNumberField("payment_cents", s.paymentCents());
      json.writeNumberField("refund_cents", s.refundCents());
      json.writeEndObject();
    } else {
      text.printf("%s bill %s, [%s, %s): %d payments (%s), %d refunds (%s); the bill's own totals agree%n", channel,
          file, s.from().format(BillCsv.TIME), s.to().format(BillCsv.TIME), s.paymentRows(),
          Money.format(s.paymentCents()), s.refundRows(), Money.format(s.refundCents()));
    }
  }

  @Override
  public void accept(Finding f) throws IOException, SQLException {
    write(f, null);
    if (insert != null) {
      Object amount = f.fields().getOrDefault("amount_cents", f.fields().get("platform_cents"));
      insert.setString(1, f.kind().code());
      insert.setString(2, f.channel());
      insert.setString(3, (String) f.fields().get("order_no"));
      insert.setString(4, (String) f.fields().get("trade_no"));
      insert.setObject(5, amount);
      insert.setString(6, f.line().strip() + " (" + f.kind().meaning + ")");
      insert.setString(7, "recon:" + f.kind().code() + ":" + f.channel() + ":" + f.subject());
      insert.addBatch();
      if (++pending % 500 == 0) {
        insert.executeBatch();
      }
    }
  }

  /**
   * A finding already put right ({@code reconcile.daily.auto_repair}): reported and counted as found, with what
   * was done, but no anomaly: nothing is left for a human.
   */
  public void repaired(Finding f, String done) throws IOException {
    write(f, done);
    repaired++;
  }

  private void write(Finding f, String repair) throws IOException {
    if (counts.isEmpty() && json != null) {
      json.writeArrayFieldStart("findings");
    }
    counts.merge(f.kind(), 1L, Long::sum);
    if (json != null) {
      json.writeStartObject();
      json.writeStringField("kind", f.kind().code());
      for (Map.Entry<String, Object> field : f.fields().entrySet()) {
        json.writeObjectField(field.getKey(), field.getValue());
      }
      if (repair != null) {
        json.writeStringField("repaired", repair);
      }
      json.writeEndObject();
    } else {
      text.println(repair == null ? f.line() : f.line() + "  repaired: " + repair);
    }
  }

  /** Ends the document (and commits what was recorded). @return how many findings */
  public long finish() throws IOException, SQLException {
    long total = counts.values().stream().mapToLong(Long::longValue).sum();
    if (insert != null) {
      insert.executeBatch();
      record.commit();
    }
    if (json != null) {
      if (total == 0) {
        json.writeArrayFieldStart("findings");
      }
      json.writeEndArray();
      json.writeObjectFieldStart("counts");
      for (Map.Entry<Kind, Long> c : counts.entrySet()) {
        json.writeNumberField(c.getKey().code(), c.getValue());
      }
      json.writeEndObject();
      json.writeNumberField("repaired", repaired);
      json.writeBooleanField("clean", total == 0);
      json.writeEndObject();
      json.flush();
    } else if (total == 0) {
      text.println("nothing found");
      text.flush();
    } else {
      text.println("found:");
      counts.forEach((kind, n) -> text.printf("  %d %s: %s; %s%n", n, kind.code(), kind.meaning, kind.hint));
      if (repaired > 0) {
        text.printf("  %d of them repaired (booked as their notification would have been)%n", repaired);
      }
      if (insert != null) {
        text.println("recorded as anomalies (scripts/paynotify anomalies list --open)");
      }
      text.flush();
    }
    return total;
  }

  @Override
  public void close() throws IOException, SQLException {
    if (json != null) {
      json.close();
    }
    if (insert != null) {
      insert.close();
    }
  }
}
