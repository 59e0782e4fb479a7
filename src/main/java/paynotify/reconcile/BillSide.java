package paynotify.reconcile;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import paynotify.store.OrdersTable;

/**
 * The bill's side of a reconciliation, one batch at a time, on its own session: what was booked
 * for the batch's trades; a trade not booked (a lost notification) or booked for another amount
 * goes into the session's bill_side table, reported once the whole bill is known good.
 */
final class BillSide {
  private final Connection conn;
  private final String channel;
  private final OrdersTable orders;
  /** The statement for a full batch, the common case, prepared once. */
  private PreparedStatement fullBatch;
  private PreparedStatement insert;

  BillSide(Connection conn, String channel, OrdersTable orders) {
    this.conn = conn;
    this.channel = channel;
    this.orders = orders;
  }

  private record Booked(String orderNo, long amountCents) {}

  void lookUp(List<BillRow> batch) throws SQLException {
    List<BillRow> payments = batch.stream().filter(r -> !r.refund()).toList();
    if (payments.isEmpty()) {
      return;
    }
    Map<String, Booked> booked = booked(payments);
    List<BillRow> missing = new ArrayList<>();
    if (insert == null) {
      insert = conn.prepareStatement(ReconcileSql.INSERT_BILL_SIDE);
    }
    for (BillRow row : payments) {
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
        record(row, null, null, known.contains(row.orderNo()));
      }
    }
    insert.executeBatch();
  }

  private void record(BillRow row, String localOrderNo, Long localCents, boolean orderKnown) throws SQLException {
    ReconcileSql.bind(insert, row.line(), row.tradeNo(), row.orderNo(), row.amountCents(), localOrderNo, localCents,
        Timestamp.valueOf(row.at()), orderKnown);
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
    List<String> orders = missing.stream().map(BillRow::orderNo).filter(o -> o != null && !o.isEmpty()).distinct()
        .toList();
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
