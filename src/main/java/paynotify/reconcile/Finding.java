package paynotify.reconcile;

import java.time.LocalDateTime;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import paynotify.channel.Money;

/**
 * One discrepancy: its kind, and the fields that identify it (trade_no, order_no, amounts...),
 * in the order they are printed.
 */
public record Finding(Kind kind, String channel, Map<String, Object> fields) {

  /** What was found, and what the operator should do about it. */
  public enum Kind {
    MISSING_LOCAL("paid on the platform, not booked here (a lost notification)",
        "book it: scripts/paynotify repair book --channel <channel> --bill <bill> --trade-no <trade_no>"),
    MISSING_PLATFORM("booked here, not on the platform's bill",
        "look the trade up in the platform's console; if it was not paid, the booking is wrong"),
    AMOUNT_MISMATCH("booked for another amount than the platform's trade total",
        "compare the order with the platform's record"),
    REFUND_MISSING_LOCAL("refunded on the platform, not booked here", "the refund notification was lost"),
    REFUND_MISSING_PLATFORM("refund booked here, not on the platform's bill", "look the refund up in the console"),
    REFUND_AMOUNT_MISMATCH("refund booked here for another amount than the platform's",
        "compare the refund with the platform's record"),
    DUPLICATE_TRADE("one trade booked more than once (payments lost its uk_trade_no?)", "delete the extra rows"),
    ORDER_PAID_TWICE("one order paid by two trades: the buyer paid twice", "refund one of the payments");

    public final String meaning;
    public final String hint;

    Kind(String meaning, String hint) {
      this.meaning = meaning;
      this.hint = hint;
    }

    public String code() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  static Finding of(Kind kind, String channel, Object... keyValues) {
    Map<String, Object> fields = new LinkedHashMap<>();
    for (int i = 0; i + 1 < keyValues.length; i += 2) {
      fields.put((String) keyValues[i], keyValues[i + 1]);
    }
    return new Finding(kind, channel, fields);
  }

  /**
   * The id that names the finding: trade_no/refund_no for refunds (Alipay numbers them within
   * their trade), order_no for orders, else trade_no.
   */
  String subject() {
    if (fields.get("refund_no") != null) {
      return fields.get("trade_no") + "/" + fields.get("refund_no");
    }
    for (String key : new String[] {"trade_no", "order_no"}) {
      if (fields.get(key) != null) {
        return String.valueOf(fields.get(key));
      }
    }
    return "";
  }

  /** A time field ({@code paid_at}, {@code refunded_at}); null when absent. */
  public LocalDateTime time(String key) {
    Object value = fields.get(key);
    return value == null ? null : LocalDateTime.parse((String) value, BillCsv.TIME);
  }

  /** One line: {@code kind  key value  key value ...}, amounts in yuan. */
  public String line() {
    StringBuilder line = new StringBuilder(String.format("%-24s", kind.code()));
    fields.forEach((k, v) -> {
      if (v instanceof Long cents && k.endsWith("_cents")) {
        line.append("  ").append(k, 0, k.length() - "_cents".length()).append(' ').append(Money.format(cents));
      } else if (v != null) {
        line.append("  ").append(k).append(' ').append(v);
      }
    });
    return line.toString();
  }
}
