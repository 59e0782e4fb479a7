package paynotify.reconcile;

import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import paynotify.reconcile.Finding.Kind;
import paynotify.reconcile.Reconciliation.FindingSink;

/**
 * The bill's payments against the bookings of its channel and window, both read in trade order
 * (each sorted once by its own session, at the same time) and merged. A booking with no bill row
 * is missing on the platform; a bill row whose trade was booked for another amount, or has no
 * booking in the window, goes to {@link BillSide}. Reading the window in order, rather than
 * looking each trade up, keeps the database from a random read per trade when payments do not fit
 * its buffer pool.
 */
final class TradeMerge {
  private final Connection bill;
  private final Connection bookings;
  private final BillSide billSide;
  private final FindingSink sink;

  /**
   * @param bill     the session holding bill_payments
   * @param bookings another session, which reads the window at the same time
   */
  TradeMerge(Connection bill, Connection bookings, BillSide billSide, FindingSink sink) {
    this.bill = bill;
    this.bookings = bookings;
    this.billSide = billSide;
    this.sink = sink;
  }

  void run(String channel, Timestamp from, Timestamp to) throws SQLException, IOException {
    try (PreparedStatement billQuery = bill.prepareStatement(ReconcileSql.BILL_PAYMENTS_BY_TRADE);
        PreparedStatement bookedQuery = bookings.prepareStatement(ReconcileSql.BOOKED_IN_WINDOW_BY_TRADE)) {
      billQuery.setFetchSize(ReconcileSql.BATCH);
      bookedQuery.setFetchSize(ReconcileSql.BATCH);
      ReconcileSql.set(bookedQuery, channel, from, to);
      CompletableFuture<ResultSet> billSorted = CompletableFuture.supplyAsync(() -> execute(billQuery));
      CompletableFuture<ResultSet> bookedSorted = CompletableFuture.supplyAsync(() -> execute(bookedQuery));
      CompletableFuture.allOf(billSorted, bookedSorted).exceptionally(failed -> null).join();
      try (ResultSet billRows = Reconciliation.join(billSorted, SQLException.class);
          ResultSet booked = Reconciliation.join(bookedSorted, SQLException.class)) {
        merge(new Cursor(billRows), new Cursor(booked), channel);
      }
    }
  }

  private void merge(Cursor billRows, Cursor booked, String channel) throws SQLException, IOException {
    billRows.next();
    booked.next();
    while (billRows.trade != null || booked.trade != null) {
      int order = billRows.trade == null ? 1 : booked.trade == null ? -1 : Cursor.compare(billRows.trade, booked.trade);
      if (order < 0) {
        billSide.notInWindow(billRow(billRows.rs));
        billRows.next();
      } else if (order > 0) {
        ResultSet rs = booked.rs;
        sink.accept(Finding.of(Kind.MISSING_PLATFORM, channel, "trade_no", booked.trade, "order_no", rs.getString(2),
            "amount_cents", rs.getLong(3), "paid_at", Reconciliation.time(rs, 4)));
        booked.next();
      } else {
        // Every bill row of the trade against its booking (a trade listed twice is compared twice,
        // a trade booked twice, which only a table without uk_trade_no holds, is on the bill).
        String trade = booked.trade;
        String localOrderNo = booked.rs.getString(2);
        long localCents = booked.rs.getLong(3);
        while (trade.equals(billRows.trade)) {
          if (billRows.rs.getLong(4) != localCents) {
            billSide.otherAmount(billRow(billRows.rs), localOrderNo, localCents);
          }
          billRows.next();
        }
        while (trade.equals(booked.trade)) {
          booked.next();
        }
      }
    }
  }

  private static BillRow billRow(ResultSet rs) throws SQLException {
    return new BillRow(false, rs.getString(2), rs.getString(3), null, null, rs.getLong(4),
        rs.getTimestamp(5).toLocalDateTime(), rs.getLong(1));
  }

  /** A result set read in trade order (its trade_no in the column given), checked to be so. */
  private static final class Cursor {
    final ResultSet rs;
    final int column;
    /** The current row's trade, null past the end. */
    String trade;

    Cursor(ResultSet rs) throws SQLException {
      this.rs = rs;
      this.column = rs.findColumn("trade_no");
    }

    void next() throws SQLException {
      String previous = trade;
      trade = rs.next() ? rs.getString(column) : null;
      // The merge is only right if both sides are in the order it compares in: utf8mb4_bin sorts
      // by code point, as compare() does; refuse rather than report what is not there.
      if (previous != null && trade != null && compare(previous, trade) > 0) {
        throw new IllegalStateException("trades not in code-point order: " + previous + " before " + trade);
      }
    }

    static int compare(String a, String b) {
      int i = 0;
      while (i < a.length() && i < b.length()) {
        int ca = a.codePointAt(i);
        int cb = b.codePointAt(i);
        if (ca != cb) {
          return Integer.compare(ca, cb);
        }
        i += Character.charCount(ca);
      }
      return Integer.compare(a.length() - i, b.length() - i);
    }
  }

  private static ResultSet execute(PreparedStatement query) {
    try {
      return query.executeQuery();
    } catch (SQLException e) {
      throw new CompletionException(e);
    }
  }
}
