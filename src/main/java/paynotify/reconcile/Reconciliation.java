package paynotify.reconcile;

import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.util.function.LongConsumer;
import paynotify.reconcile.Finding.Kind;

/**
 * A bill against the bookings, both directions, for the bill's channel and window only (a
 * payment of another day or channel is never "missing from the platform"). The bill streams into
 * a session-temporary table; the database joins it: this process holds one batch of rows at a
 * time and hands each finding on as it is read.
 */
public final class Reconciliation {
  private static final int BATCH = 1000;

  /** Receives findings one by one. */
  public interface FindingSink {
    void accept(Finding finding) throws IOException, SQLException;
  }

  private final Connection conn;

  public Reconciliation(Connection conn) {
    this.conn = conn;
  }

  /**
   * Reads the whole bill into the session's bill_rows; nothing is compared before the bill is
   * known to be complete.
   *
   * @param progress told the number of rows read so far, every 100,000
   * @return what the bill held, checked against its own totals
   */
  public Bill.Summary load(Bill bill, LongConsumer progress) throws IOException, SQLException, BillFormatException {
    try (Statement s = conn.createStatement()) {
      s.execute("DROP TEMPORARY TABLE IF EXISTS bill_rows");
      s.execute(ReconcileSql.CREATE_BILL_ROWS);
    }
    return insertRows(bill, progress);
  }

  /** Both directions, for the loaded bill's channel and window. */
  public void compare(String ch, Bill.Summary summary, FindingSink sink) throws IOException, SQLException {
    Timestamp from = Timestamp.valueOf(summary.from());
    Timestamp to = Timestamp.valueOf(summary.to());
    each(ReconcileSql.MISSING_LOCAL, sink, rs -> Finding.of(Kind.MISSING_LOCAL, ch, "trade_no", rs.getString(1),
        "order_no", rs.getString(2), "amount_cents", rs.getLong(3), "paid_at", time(rs, 4),
        "order_known", rs.getBoolean(5)), ch);
    each(ReconcileSql.MISSING_PLATFORM, sink, rs -> Finding.of(Kind.MISSING_PLATFORM, ch, "trade_no", rs.getString(1),
        "order_no", rs.getString(2), "amount_cents", rs.getLong(3), "paid_at", time(rs, 4)), ch, from, to);
    each(ReconcileSql.AMOUNT_MISMATCH, sink, rs -> Finding.of(Kind.AMOUNT_MISMATCH, ch, "trade_no", rs.getString(1),
        "order_no", rs.getString(2), "platform_cents", rs.getLong(3), "local_cents", rs.getLong(4)), ch);
    each(ReconcileSql.REFUND_MISSING_LOCAL, sink, rs -> Finding.of(Kind.REFUND_MISSING_LOCAL, ch,
        "refund_no", rs.getString(1), "out_refund_no", rs.getString(2), "trade_no", rs.getString(3),
        "order_no", rs.getString(4), "amount_cents", rs.getLong(5), "refunded_at", time(rs, 6)), ch);
    each(ReconcileSql.REFUND_MISSING_PLATFORM, sink, rs -> Finding.of(Kind.REFUND_MISSING_PLATFORM, ch,
        "refund_no", rs.getString(1), "trade_no", rs.getString(2), "order_no", rs.getString(3),
        "amount_cents", rs.getLong(4), "refunded_at", time(rs, 5)), ch, from, to);
  }

  /** The duplicate audit: trades booked more than once, orders paid by more than one trade. */
  public void audit(FindingSink sink) throws IOException, SQLException {
    each(ReconcileSql.DUPLICATE_TRADE, sink, rs -> Finding.of(Kind.DUPLICATE_TRADE, rs.getString(1),
        "trade_no", rs.getString(2), "order_no", rs.getString(3), "rows", rs.getLong(4)));
    each(ReconcileSql.ORDER_PAID_TWICE, sink, rs -> Finding.of(Kind.ORDER_PAID_TWICE, "audit",
        "order_no", rs.getString(1), "payments", rs.getString(2)));
  }

  private Bill.Summary insertRows(Bill bill, LongConsumer progress)
      throws IOException, SQLException, BillFormatException {
    try (PreparedStatement insert = conn.prepareStatement(ReconcileSql.INSERT_BILL_ROW)) {
      long[] rows = {0};
      Bill.Summary summary = bill.read(row -> {
        try {
          insert.setLong(1, row.line());
          insert.setBoolean(2, row.refund());
          insert.setString(3, row.tradeNo());
          insert.setString(4, row.orderNo());
          insert.setString(5, row.refundNo());
          insert.setString(6, row.outRefundNo());
          insert.setLong(7, row.amountCents());
          insert.setTimestamp(8, Timestamp.valueOf(row.at()));
          insert.addBatch();
          if (++rows[0] % BATCH == 0) {
            insert.executeBatch();
          }
          if (rows[0] % 100_000 == 0) {
            progress.accept(rows[0]);
          }
        } catch (SQLException e) {
          throw new DatabaseFailure(e);
        }
      });
      insert.executeBatch();
      return summary;
    } catch (DatabaseFailure e) {
      throw (SQLException) e.getCause();
    }
  }

  /** A database error raised while the bill was being read, carried out through the reader. */
  private static final class DatabaseFailure extends RuntimeException {
    DatabaseFailure(SQLException cause) {
      super(cause);
    }
  }

  private interface RowMapper {
    Finding map(ResultSet rs) throws SQLException;
  }

  private void each(String sql, FindingSink sink, RowMapper mapper, Object... args) throws SQLException, IOException {
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
  }

  private static String time(ResultSet rs, int column) throws SQLException {
    Timestamp t = rs.getTimestamp(column);
    return t == null ? null : t.toLocalDateTime().withNano(0).format(BillCsv.TIME);
  }

}
