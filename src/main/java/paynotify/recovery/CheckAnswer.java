package paynotify.recovery;

import io.vertx.core.json.JsonObject;

/**
 * What the site's return page (or the owner) is told after asking about an order: its state in the site's
 * table once whatever the platform reported was booked, and whether the goods may be handed over.
 *
 * @param state          paid, unpaid, closed, partially_refunded, refunded or unknown (no such order)
 * @param platformStatus what the platform said (TRADE_SUCCESS, NOTPAY, ...), null when none was asked
 * @param detail         one line: what was booked, or why the platform was not asked or not believed
 */
public record CheckAnswer(String orderNo, State state, String platformStatus, String detail) {
  /** The order's state, as the site's status values mean it. */
  public enum State {
    PAID, UNPAID, CLOSED, PARTIALLY_REFUNDED, REFUNDED, UNKNOWN;

    public String code() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /** Whether a page may show the goods: only for an order paid and not refunded, even in part. */
  public boolean fulfil() {
    return state == State.PAID;
  }

  public JsonObject toJson() {
    return new JsonObject().put("order_no", orderNo).put("state", state.code()).put("fulfil", fulfil())
        .put("platform_status", platformStatus).put("detail", detail);
  }
}
