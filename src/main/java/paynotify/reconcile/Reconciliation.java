package paynotify.reconcile;

import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;
import java.util.function.LongConsumer;
import paynotify.reconcile.Finding.Kind;

/**
 * A bill against the bookings, both directions, for the bill's channel and window only (a
 * payment of another day or channel is never "missing from the platform"). The bill streams into
 * session-temporary tables while it is parsed (on another thread); the database joins them. This
 * process holds a few batches of rows at a time and hands each finding on as it is read.
 */
public final class Reconciliation {
  private static final int BATCH = 1000;
  private static final List<BillRow> END = List.of();

  /** Receives findings one by one. */
  public interface FindingSink {
    void accept(Finding finding) throws IOException, SQLException;
  }

  private final Connection conn;
  private Consumer<String> timings = phase -> { };
  private long phaseStart = System.nanoTime();

  public Reconciliation(Connection conn) {
    this.conn = conn;
  }

  /** Tells {@code sink} how long each step took ({@code --verbose}). */
  public Reconciliation timed(Consumer<String> sink) {
    this.timings = sink;
    return this;
  }

  /**
   * Reads the whole bill into the session's tables; nothing is compared before the bill is known
   * to be complete.
   *
   * @param progress told the number of rows read so far, every 100,000
   * @return what the bill held, checked against its own totals
   */
  public Bill.Summary load(Bill bill, LongConsumer progress) throws IOException, SQLException, BillFormatException {
    phaseStart = System.nanoTime();
    try (Statement s = conn.createStatement()) {
      s.execute("DROP TEMPORARY TABLE IF EXISTS bill_payments, bill_refunds");
      s.execute(ReconcileSql.CREATE_BILL_PAYMENTS);
      s.execute(ReconcileSql.CREATE_BILL_REFUNDS);
    }
    Bill.Summary summary = insertRows(bill, progress);
    done("bill read into the session's tables");
    return summary;
  }

  /** Both directions, for the loaded bill's channel and window. */
  public void compare(String ch, Bill.Summary summary, FindingSink sink) throws IOException, SQLException {
    Timestamp from = Timestamp.valueOf(summary.from());
    Timestamp to = Timestamp.valueOf(summary.to());
    each("paid there, not here / other amount", ReconcileSql.BILL_SIDE, sink, rs -> rs.getString(5) == null
        ? Finding.of(Kind.MISSING_LOCAL, ch, "trade_no", rs.getString(1), "order_no", rs.getString(2),
            "amount_cents", rs.getLong(3), "paid_at", time(rs, 4), "order_known", rs.getBoolean(7))
        : Finding.of(Kind.AMOUNT_MISMATCH, ch, "trade_no", rs.getString(1), "order_no", rs.getString(5),
            "platform_cents", rs.getLong(3), "local_cents", rs.getLong(6)), ch);
    each("booked here, not there", ReconcileSql.MISSING_PLATFORM, sink, rs -> Finding.of(Kind.MISSING_PLATFORM, ch,
        "trade_no", rs.getString(1), "order_no", rs.getString(2), "amount_cents", rs.getLong(3),
        "paid_at", time(rs, 4)), ch, from, to);
    each("refunds missing here", ReconcileSql.REFUND_MISSING_LOCAL, sink, rs -> Finding.of(Kind.REFUND_MISSING_LOCAL,
        ch, "refund_no", rs.getString(1), "out_refund_no", rs.getString(2), "trade_no", rs.getString(3),
        "order_no", rs.getString(4), "amount_cents", rs.getLong(5), "refunded_at", time(rs, 6)), ch);
    each("refunds missing there", ReconcileSql.REFUND_MISSING_PLATFORM, sink, rs -> Finding.of(
        Kind.REFUND_MISSING_PLATFORM, ch, "refund_no", rs.getString(1), "trade_no", rs.getString(2),
        "order_no", rs.getString(3), "amount_cents", rs.getLong(4), "refunded_at", time(rs, 5)), ch, from, to);
  }

  /** The duplicate audit: trades booked more than once, orders paid by more than one trade. */
  public void audit(FindingSink sink) throws IOException, SQLException {
    try (Statement s = conn.createStatement()) {
      s.execute("DROP TEMPORARY TABLE IF EXISTS audit_trades, audit_orders");
      s.execute(ReconcileSql.AUDIT_TRADES);
      s.execute(ReconcileSql.AUDIT_ORDERS);
    }
    done("audit candidates");
    each("trades booked twice", ReconcileSql.DUPLICATE_TRADE, sink, rs -> Finding.of(Kind.DUPLICATE_TRADE,
        rs.getString(1), "trade_no", rs.getString(2), "order_no", rs.getString(3), "rows", rs.getLong(4)));
    each("orders paid twice", ReconcileSql.ORDER_PAID_TWICE, sink, rs -> Finding.of(Kind.ORDER_PAID_TWICE, "audit",
        "order_no", rs.getString(1), "payments", rs.getString(2)));
  }

  /**
   * The bill is parsed on its own thread, handing batches through a small queue, while this one
   * sends them: parsing and inserting overlap, and at most a few batches are held.
   */
  private Bill.Summary insertRows(Bill bill, LongConsumer progress)
      throws IOException, SQLException, BillFormatException {
    BlockingQueue<List<BillRow>> batches = new ArrayBlockingQueue<>(4);
    CompletableFuture<Bill.Summary> parsed = CompletableFuture.supplyAsync(() -> {
      List<BillRow> batch = new ArrayList<>(BATCH);
      long[] rows = {0};
      try {
        Bill.Summary summary = bill.read(row -> {
          batch.add(row);
          if (batch.size() == BATCH) {
            put(batches, List.copyOf(batch));
            batch.clear();
          }
          if (++rows[0] % 100_000 == 0) {
            progress.accept(rows[0]);
          }
        });
        put(batches, List.copyOf(batch));
        return summary;
      } catch (IOException | BillFormatException e) {
        throw new java.util.concurrent.CompletionException(e);
      } finally {
        put(batches, END);
      }
    });
    try (PreparedStatement payments = conn.prepareStatement(ReconcileSql.INSERT_BILL_PAYMENT);
        PreparedStatement refunds = conn.prepareStatement(ReconcileSql.INSERT_BILL_REFUND)) {
      for (List<BillRow> batch = take(batches); batch != END; batch = take(batches)) {
        for (BillRow row : batch) {
          if (row.refund()) {
            bind(refunds, row.refundNo(), row.outRefundNo(), row.tradeNo(), row.orderNo(), row.amountCents(),
                Timestamp.valueOf(row.at()), row.line());
          } else {
            bind(payments, row.tradeNo(), row.orderNo(), row.amountCents(), Timestamp.valueOf(row.at()), row.line());
          }
        }
        payments.executeBatch();
        refunds.executeBatch();
      }
    } catch (SQLException e) {
      parsed.cancel(true);
      drain(batches, parsed);
      throw e;
    }
    try {
      return parsed.get();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof BillFormatException bad) {
        throw bad;
      }
      if (e.getCause() instanceof IOException io) {
        throw io;
      }
      throw new IllegalStateException(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
  }

  private static void bind(PreparedStatement insert, Object... values) throws SQLException {
    for (int i = 0; i < values.length; i++) {
      insert.setObject(i + 1, values[i]);
    }
    insert.addBatch();
  }

  private static void put(BlockingQueue<List<BillRow>> queue, List<BillRow> batch) {
    try {
      queue.put(batch);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static List<BillRow> take(BlockingQueue<List<BillRow>> queue) throws IOException {
    try {
      return queue.take();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
  }

  /** After a database failure: let the parser finish handing over, so that its thread ends. */
  private static void drain(BlockingQueue<List<BillRow>> queue, CompletableFuture<?> parsed) {
    while (!parsed.isDone() || !queue.isEmpty()) {
      queue.poll();
      Thread.onSpinWait();
    }
  }

  private interface RowMapper {
    Finding map(ResultSet rs) throws SQLException;
  }

  private void each(String step, String sql, FindingSink sink, RowMapper mapper, Object... args)
      throws SQLException, IOException {
    try (PreparedStatement query = conn.prepareStatement(sql)) {
      for (int i = 0; i < args.length; i++) {
        query.setObject(i + 1, args[i]);
      }
      query.setFetchSize(BATCH);
      try (ResultSet rs = query.executeQuery()) {
        while (rs.next()) {
          sink.accept(mapper.map(rs));
        }
      }
    }
    done(step);
  }

  private void done(String step) {
    long now = System.nanoTime();
    timings.accept(String.format("%s: %.2f s", step, (now - phaseStart) / 1e9));
    phaseStart = now;
  }

  private static String time(ResultSet rs, int column) throws SQLException {
    Timestamp t = rs.getTimestamp(column);
    return t == null ? null : t.toLocalDateTime().withNano(0).format(BillCsv.TIME);
  }
}
