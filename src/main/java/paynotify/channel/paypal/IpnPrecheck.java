package paynotify.channel.paypal;

import java.nio.charset.StandardCharsets;
import paynotify.channel.FormBody;
import paynotify.channel.Ids;
import paynotify.channel.RejectedNotification.Reason;
import paynotify.channel.RejectedNotification;

/**
 * The checks on an IPN's raw body made before {@link PaypalIpnSignature} asks PayPal. Every ask is a
 * request to PayPal caused by an unauthenticated one, holding a slot of the verifier's small pool:
 * refused here, a forged body costs PayPal nothing and cannot crowd out genuine IPNs. The fields read
 * are ASCII by PayPal's rules (ids, codes, the receiver's address), so they are read without decoding
 * the body.
 *
 * <p>Refused here is only what PayPal never sends this listener for this merchant, because a genuine
 * IPN answered 4xx is retried for days and then gets the listener disabled, real payments' IPNs with it:
 * <ul>
 *   <li>{@code test_ipn=1} on a live instance: the sandbox's, which anyone can have sent (IPN Simulator);
 *   <li>a {@code receiver_email} or {@code receiver_id} that is present and not ours: another merchant's
 *       IPN (their button may name our notify_url); refused after asking, it would be refused all the same;
 *   <li>an IPN about our orders' money ({@link IpnKind#ours()}) that names no receiver of ours or no
 *       currency: PayPal always sends both with those.
 * </ul>
 * What the body cannot tell is asked: an IPN that names no receiver and books nothing (a Mass Pay this
 * merchant sent names receiver_email_1..n) is asked, then answered 200 and recorded ignored. A currency
 * that is not the site's is no refusal either: the money is real, and booked as an anomaly.
 */
final class IpnPrecheck {
  private final String receiverEmail; // ASCII lower case, or null
  private final String receiverId;
  private final boolean sandbox;

  IpnPrecheck(String receiverEmail, String receiverId, boolean sandbox) {
    this.receiverEmail = receiverEmail == null ? null : asciiLowerCase(receiverEmail);
    this.receiverId = receiverId;
    this.sandbox = sandbox;
  }

  /** What the IPN is to us; throws for a body PayPal would never send us. */
  IpnKind check(byte[] body) throws RejectedNotification {
    if (!sandbox && "1".equals(field(body, "test_ipn"))) {
      throw new RejectedNotification(Reason.WRONG_MERCHANT,
          "test_ipn=1: a PayPal sandbox IPN, and this instance books live money (paypal.sandbox: false)");
    }
    IpnKind kind = IpnKind.of(field(body, "payment_status"), field(body, "txn_type"));
    String email = field(body, "receiver_email");
    String id = field(body, "receiver_id");
    // Unicode case folding would match look-alikes (ſ is s, the Kelvin sign k): ASCII case only.
    if (receiverEmail != null && (email != null || kind.ours()) && !receiverEmail.equals(asciiLowerCase(email))) {
      throw wrongReceiver("receiver_email", email, "paypal.receiver_email");
    }
    if (receiverId != null && (id != null || kind.ours()) && !receiverId.equals(id)) {
      throw wrongReceiver("receiver_id", id, "paypal.receiver_id");
    }
    String currency = field(body, "mc_currency");
    if (kind.ours() && (currency == null || !currency.matches("[A-Za-z]{3}"))) {
      throw RejectedNotification.malformed("mc_currency '" + Ids.printable(currency) + "' is not a currency code");
    }
    return kind;
  }

  private static RejectedNotification wrongReceiver(String field, String got, String configKey) {
    return new RejectedNotification(Reason.WRONG_MERCHANT,
        field + " '" + Ids.printable(got) + "' is not the configured " + configKey);
  }

  /**
   * The first value of {@code name}, percent-decoded byte for byte (a non-ASCII byte stays a character
   * that no ASCII value equals); null when absent, or when its escapes are malformed (then it matches nothing).
   */
  static String field(byte[] body, String name) {
    String raw = FormBody.rawValue(body, name);
    if (raw == null) {
      return null;
    }
    try {
      return FormBody.decode(("v=" + raw).getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.ISO_8859_1)
          .get("v");
    } catch (RejectedNotification e) {
      return null;
    }
  }

  /** Lower case for A-Z only: PayPal's addresses are ASCII, so only ASCII case may differ. */
  static String asciiLowerCase(String s) {
    if (s == null) {
      return null;
    }
    char[] chars = s.toCharArray();
    for (int i = 0; i < chars.length; i++) {
      if (chars[i] >= 'A' && chars[i] <= 'Z') {
        chars[i] = (char) (chars[i] + ('a' - 'A'));
      }
    }
    return new String(chars);
  }
}
