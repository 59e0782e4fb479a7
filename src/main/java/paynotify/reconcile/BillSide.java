package paynotify.reconcile;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import paynotify.store.OrdersTable;

/**
 * The bill's side of a reconciliation, on its own session: bill rows booked for another amount,
 * and those whose trade has no booking in the window, looked up by trade in batches (a lost
 * notification, or a booking of another day or channel). What differs goes into the session's
 * bill_side table, read once the merge is done.
 */
final class BillSide {
  private final Connection conn;
  private final String channel;
  private final OrdersTable orders;
  private final List<BillRow> notInWindow = new ArrayList<>();
  private final PreparedStatement insert;
  /** The statement for a full batch, the common case, prepared once. */
  private PreparedStatement fullBatch;
  private int recorded;

  BillSide(Connection conn, String channel, OrdersTable orders) throws SQLException {
    this.conn = conn;
    this.channel = channel;
    this.orders = orders;
    try (Statement s = conn.createStatement()) {
      s.execute(ReconcileSql.DROP_BILL_SIDE);
      s.execute(ReconcileSql.CREATE_BILL_SIDE);
    }
    this.insert = conn.prepareStatement(ReconcileSql.INSERT_BILL_SIDE);
  }

  private record Booked(String orderNo, long amountCents) {}

  /** A bill row whose trade was booked in the window for another amount. */
  void otherAmount(BillRow row, String localOrderNo, long localCents) throws SQLException {
    record(row, localOrderNo, localCents, true);
  }

  /** A bill row whose trade has no booking of the bill's channel in its window: looked up by trade. */
  void notInWindow(BillRow row) throws SQLException {
    notInWindow.add(row);
    if (notInWindow.size() == ReconcileSql.BATCH) {
      lookUp();
    }
  }

  /** Looks up what is left and writes what is pending: bill_side is complete. */
  void finish() throws SQLException {
    if (!notInWindow.isEmpty()) {
      lookUp();
    }
    insert.executeBatch();
  }

  private void lookUp() throws SQLException {
    Map<String, Booked> booked = booked(notInWindow);
    List<BillRow> missing = new ArrayList<>();
    for (BillRow row : notInWindow) {
      Booked b = booked.get(row.tradeNo());
      if (b == null) {
        missing.add(row);
      } else if (b.amountCents() != row.amountCents()) {
        record(row, b.orderNo(), b.amountCents(), true);
      }
    }
    if (!missing.isEmpty()) {
      Set<String> known = knownOrders(missing);
      for (BillRow row : missing) {
        record(row, null, null, known.contains(orders.numbers().toSite(row.orderNo())));
      }
    }
    notInWindow.clear();
  }

  private void record(BillRow row, String localOrderNo, Long localCents, boolean orderKnown) throws SQLException {
    ReconcileSql.bind(insert, row.line(), row.tradeNo(), row.orderNo(), row.amountCents(), localOrderNo, localCents,
        Timestamp.valueOf(row.at()), orderKnown);
    if (++recorded % ReconcileSql.BATCH == 0) {
      insert.executeBatch();
    }
  }

  private Map<String, Booked> booked(List<BillRow> payments) throws SQLException {
    if (payments.size() != ReconcileSql.BATCH) {
      try (PreparedStatement oneOff = conn.prepareStatement(ReconcileSql.bookedTrades(payments.size()))) {
        return booked(oneOff, payments);
      }
    }
    if (fullBatch == null) {
      fullBatch = conn.prepareStatement(ReconcileSql.bookedTrades(ReconcileSql.BATCH));
    }
    return booked(fullBatch, payments);
  }

  private Map<String, Booked> booked(PreparedStatement query, List<BillRow> payments) throws SQLException {
    query.setString(1, channel);
    for (int i = 0; i < payments.size(); i++) {
      query.setString(i + 2, payments.get(i).tradeNo());
    }
    Map<String, Booked> booked = new HashMap<>();
    try (ResultSet rs = query.executeQuery()) {
      while (rs.next()) {
        booked.put(rs.getString(1), new Booked(rs.getString(2), rs.getLong(3)));
      }
    }
    return booked;
  }

  private Set<String> knownOrders(List<BillRow> missing) throws SQLException {
    List<String> orders = missing.stream().map(row -> this.orders.numbers().toSite(row.orderNo()))
        .filter(o -> o != null && !o.isEmpty()).distinct().toList();
    Set<String> known = new HashSet<>();
    if (orders.isEmpty()) {
      return known;
    }
    try (PreparedStatement query = conn.prepareStatement(this.orders.knownOrders(orders.size()))) {
      for (int i = 0; i < orders.size(); i++) {
        query.setString(i + 1, orders.get(i));
      }
      try (ResultSet rs = query.executeQuery()) {
        while (rs.next()) {
          known.add(rs.getString(1));
        }
      }
    }
    return known;
  }
}
