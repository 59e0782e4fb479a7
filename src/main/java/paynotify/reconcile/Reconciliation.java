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
import java.util.concurrent.CompletionException;
import java.util.function.Consumer;
import java.util.function.LongConsumer;
import paynotify.reconcile.Finding.Kind;
import paynotify.store.OrdersTable;

/**
 * A bill against the bookings, both directions, for the bill's channel and window only (a
 * payment of another day or channel is never "missing from the platform"). While the bill is
 * parsed (one thread), its rows stream into session tables (this thread); once the bill is known
 * complete, its payments and the window's bookings are merged in trade order ({@link TradeMerge})
 * and the findings stream out. This process holds a few batches at a time.
 */
public final class Reconciliation {
  private static final List<BillRow> END = List.of();

  /** Receives findings one by one. */
  public interface FindingSink {
    void accept(Finding finding) throws IOException, SQLException;
  }

  private final Connection conn;
  private final Connection bookings;
  private final Connection side;
  private final OrdersTable orders;
  private Consumer<String> timings = phase -> { };
  private long phaseStart = System.nanoTime();
  /** The session whose audit_* tables are ready (compare() prepares them on the idle one). */
  private Connection auditPrepared;
  private PreparedStatement insertPayment;
  private PreparedStatement insertRefund;

  /** For the duplicate audit alone. */
  public Reconciliation(Connection conn) {
    this(conn, conn, conn, OrdersTable.byDefault());
  }

  /**
   * @param bookings a second connection: the window's bookings are read on it while {@code conn}
   *                 reads the bill's rows
   * @param side     a third: bill rows not matched in the window are looked up on it meanwhile
   * @param orders   the site's orders table, where an unbooked trade's order is looked for
   */
  public Reconciliation(Connection conn, Connection bookings, Connection side, OrdersTable orders) {
    this.conn = conn;
    this.bookings = bookings;
    this.side = side;
    this.orders = orders;
  }

  /** Tells {@code sink} how long each step took ({@code --verbose}). */
  public Reconciliation timed(Consumer<String> sink) {
    this.timings = sink;
    return this;
  }

  /**
   * Reads the whole bill into the sessions' tables; nothing is reported before the bill is known
   * to be complete.
   *
   * @param progress told the number of rows read so far, every 100,000
   * @return what the bill held, checked against its own totals
   */
  public Bill.Summary load(Bill bill, LongConsumer progress) throws SQLException, BillFormatException {
    phaseStart = System.nanoTime();
    try (Statement s = conn.createStatement()) {
      s.execute(ReconcileSql.DROP_BILL_TABLES);
      s.execute(ReconcileSql.CREATE_BILL_PAYMENTS);
      s.execute(ReconcileSql.CREATE_BILL_REFUNDS);
    }
    BlockingQueue<List<BillRow>> toInsert = new ArrayBlockingQueue<>(4);
    CompletableFuture<Bill.Summary> parsed = CompletableFuture.supplyAsync(() -> parse(bill, progress, toInsert));
    SQLException inserting = drain(toInsert, this::insert);
    Bill.Summary summary = join(parsed, BillFormatException.class);
    if (inserting != null) {
      throw inserting;
    }
    done("bill loaded");
    return summary;
  }

  /**
   * Both directions, for the loaded bill's channel and window. Then the other session prepares
   * the duplicate audit's candidates for the same channel and window while the refunds are
   * compared, so that {@link #audit} only reads them.
   */
  public void compare(String ch, Bill.Summary summary, FindingSink sink) throws IOException, SQLException {
    Timestamp from = Timestamp.valueOf(summary.from());
    Timestamp to = Timestamp.valueOf(summary.to());
    BillSide billSide = new BillSide(side, ch, orders);
    new TradeMerge(conn, bookings, billSide, sink).run(ch, from, to);
    billSide.finish();
    done("bill and bookings merged in trade order (booked here, not there)");
    CompletableFuture<SQLException> auditReady = CompletableFuture.supplyAsync(() -> prepareAudit(bookings,
        ReconcileSql.AUDIT_TRADES_IN_WINDOW, ReconcileSql.AUDIT_ORDERS_IN_WINDOW, ch, from, to));
    each(side, "paid there, not here / other amount", ReconcileSql.BILL_SIDE, sink, rs -> rs.getObject(6) == null
        ? Finding.of(Kind.MISSING_LOCAL, ch, "trade_no", rs.getString(1), "order_no", rs.getString(2),
            "amount_cents", rs.getLong(3), "paid_at", time(rs, 4), "order_known", rs.getBoolean(7))
        : Finding.of(Kind.AMOUNT_MISMATCH, ch, "trade_no", rs.getString(1), "order_no", rs.getString(5),
            "platform_cents", rs.getLong(3), "local_cents", rs.getLong(6)));
    each(conn, "refunded there, not here / other amount", ReconcileSql.BILL_REFUNDS, sink, rs -> rs.getObject(7) == null
        ? Finding.of(Kind.REFUND_MISSING_LOCAL, ch, "refund_no", rs.getString(1), "out_refund_no", rs.getString(2),
            "trade_no", rs.getString(3), "order_no", rs.getString(4), "amount_cents", rs.getLong(5),
            "refunded_at", time(rs, 6))
        : Finding.of(Kind.REFUND_AMOUNT_MISMATCH, ch, "refund_no", rs.getString(1), "trade_no", rs.getString(3),
            "order_no", rs.getString(4), "platform_cents", rs.getLong(5), "local_cents", rs.getLong(7)), ch);
    each(conn, "refunds missing there", ReconcileSql.REFUND_MISSING_PLATFORM, sink, rs -> Finding.of(
        Kind.REFUND_MISSING_PLATFORM, ch, "refund_no", rs.getString(1), "trade_no", rs.getString(2),
        "order_no", rs.getString(3), "amount_cents", rs.getLong(4), "refunded_at", time(rs, 5)), ch, from, to);
    SQLException preparing = auditReady.join();
    if (preparing != null) {
      throw preparing;
    }
    auditPrepared = bookings;
  }

  /**
   * The duplicate audit: trades booked more than once, orders paid by more than one trade; after
   * {@link #compare}, those with a payment in the bill's channel and window only.
   */
  public void audit(FindingSink sink) throws IOException, SQLException {
    if (auditPrepared == null) {
      SQLException preparing = prepareAudit(conn, ReconcileSql.AUDIT_TRADES, ReconcileSql.AUDIT_ORDERS);
      if (preparing != null) {
        throw preparing;
      }
      auditPrepared = conn;
    }
    done("audit candidates");
    each(auditPrepared, "trades booked twice", ReconcileSql.DUPLICATE_TRADE, sink, rs -> Finding.of(
        Kind.DUPLICATE_TRADE, rs.getString(1), "trade_no", rs.getString(2), "order_no", rs.getString(3),
        "rows", rs.getLong(4)));
    each(auditPrepared, "orders paid twice", ReconcileSql.ORDER_PAID_TWICE, sink, rs -> Finding.of(
        Kind.ORDER_PAID_TWICE, "audit", "order_no", rs.getString(1), "payments", rs.getString(2)));
  }

  /** The audit's candidates, found on covering indexes, into {@code on}'s session tables. */
  private static SQLException prepareAudit(Connection on, String trades, String orders, Object... scope) {
    try (Statement s = on.createStatement()) {
      s.execute(ReconcileSql.DROP_AUDIT_TABLES);
      for (String candidates : List.of(trades, orders)) {
        try (PreparedStatement create = on.prepareStatement(candidates)) {
          ReconcileSql.set(create, scope);
          create.execute();
        }
      }
      return null;
    } catch (SQLException e) {
      return e;
    }
  }

  /** The parser's thread: batches, then END (also after a failure). */
  private static Bill.Summary parse(Bill bill, LongConsumer progress, BlockingQueue<List<BillRow>> toInsert) {
    List<BillRow> batch = new ArrayList<>(ReconcileSql.BATCH);
    long[] rows = {0};
    try {
      Bill.Summary summary = bill.read(row -> {
        batch.add(row);
        if (batch.size() == ReconcileSql.BATCH) {
          put(toInsert, List.copyOf(batch));
          batch.clear();
        }
        if (++rows[0] % 100_000 == 0) {
          progress.accept(rows[0]);
        }
      });
      put(toInsert, List.copyOf(batch));
      return summary;
    } catch (BillFormatException e) {
      throw new CompletionException(e);
    } finally {
      put(toInsert, END);
    }
  }

  private interface BatchWork {
    void accept(List<BillRow> batch) throws SQLException;
  }

  /**
   * Consumes batches until END. After a failure it keeps taking (and drops) them, so that the
   * parser never blocks; the failure is returned.
   */
  private static SQLException drain(BlockingQueue<List<BillRow>> queue, BatchWork work) {
    SQLException failure = null;
    for (List<BillRow> batch = take(queue); batch != END; batch = take(queue)) {
      if (failure == null) {
        try {
          work.accept(batch);
        } catch (SQLException e) {
          failure = e;
        }
      }
    }
    return failure;
  }

  /** This thread: the batch's rows into the session's tables. */
  private void insert(List<BillRow> batch) throws SQLException {
    if (insertPayment == null) {
      insertPayment = conn.prepareStatement(ReconcileSql.INSERT_BILL_PAYMENT);
      insertRefund = conn.prepareStatement(ReconcileSql.INSERT_BILL_REFUND);
    }
    for (BillRow row : batch) {
      if (row.refund()) {
        ReconcileSql.bind(insertRefund, row.refundNo(), row.outRefundNo(), row.tradeNo(), row.orderNo(),
            row.amountCents(), Timestamp.valueOf(row.at()), row.line());
      } else {
        ReconcileSql.bind(insertPayment, row.line(), row.tradeNo(), row.orderNo(), row.amountCents(),
            Timestamp.valueOf(row.at()));
      }
    }
    insertPayment.executeBatch();
    insertRefund.executeBatch();
  }

  /** The future's value; a failure of type {@code checked} thrown as itself. */
  static <T, E extends Exception> T join(CompletableFuture<T> future, Class<E> checked) throws E {
    try {
      return future.join();
    } catch (CompletionException e) {
      if (checked.isInstance(e.getCause())) {
        throw checked.cast(e.getCause());
      }
      throw e;
    }
  }

  private static void put(BlockingQueue<List<BillRow>> queue, List<BillRow> batch) {
    try {
      queue.put(batch);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static List<BillRow> take(BlockingQueue<List<BillRow>> queue) {
    try {
      return queue.take();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return END;
    }
  }

  private interface RowMapper {
    Finding map(ResultSet rs) throws SQLException;
  }

  private void each(Connection on, String step, String sql, FindingSink sink, RowMapper mapper, Object... args)
      throws SQLException, IOException {
    try (PreparedStatement query = on.prepareStatement(sql)) {
      ReconcileSql.set(query, args);
      query.setFetchSize(ReconcileSql.BATCH);
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

  static String time(ResultSet rs, int column) throws SQLException {
    Timestamp t = rs.getTimestamp(column);
    return t == null ? null : t.toLocalDateTime().withNano(0).format(BillCsv.TIME);
  }
}
