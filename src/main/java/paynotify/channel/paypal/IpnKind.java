package paynotify.channel.paypal;

import java.util.Set;

/**
 * What an IPN is to us, told by two ASCII fields of the raw body (so known before PayPal is asked):
 * {@code payment_status} and {@code txn_type}. Only the allowed types book a payment: any other
 * (masspay, subscr_*, adjustment, new_case, ...) is PayPal's news of something that is not an order's
 * payment, even when it says Completed and carries the order field.
 */
enum IpnKind {
  /** A Completed payment of an allowed type: booked. */
  PAYMENT,
  /** Refunded or Reversed (a chargeback): booked as a refund of parent_txn_id. */
  REFUND,
  /** A chargeback decided for the merchant after its Reversed: an anomaly (the order says refunded). */
  CANCELED_REVERSAL,
  /** An allowed type not (yet) completed: Pending, Denied, ...; its Completed is booked when it comes. */
  NOT_YET,
  /** A type paynotify does not book: genuine, answered 200, recorded ignored. */
  NOT_BOOKED;

  /** The payment types of buttons, carts and checkouts, whose order field the site set. */
  static final Set<String> BOOKED_TYPES =
      Set.of("web_accept", "cart", "express_checkout", "pro_hosted", "virtual_terminal", "invoice_payment");

  static IpnKind of(String paymentStatus, String txnType) {
    return switch (paymentStatus == null ? "" : paymentStatus) {
      case "Refunded", "Reversed" -> REFUND; // refund IPNs carry no txn_type, or their payment's
      case "Canceled_Reversal" -> CANCELED_REVERSAL;
      default -> !BOOKED_TYPES.contains(txnType == null ? "" : txnType) ? NOT_BOOKED
          : "Completed".equals(paymentStatus) ? PAYMENT : NOT_YET;
    };
  }

  /** Whether it concerns money of this merchant's orders: then PayPal always names the receiver and currency. */
  boolean ours() {
    return this != NOT_BOOKED;
  }
}
