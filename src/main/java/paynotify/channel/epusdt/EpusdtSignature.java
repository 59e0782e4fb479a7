package paynotify.channel.epusdt;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import paynotify.channel.Ids;
import paynotify.channel.RejectedNotification.Reason;
import paynotify.channel.RejectedNotification;
import paynotify.channel.Signatures;
import paynotify.crypto.Digests;

/**
 * The epusdt {@code signature}, as {@code src/util/sign/sign.go} of assimon/epusdt and GMWalletApp/epusdt
 * computes it: {@code md5(the top-level fields but signature, null and "" skipped, numbers written as Go's
 * FormatFloat(x, 'f', -1, 64), k=v sorted and joined with & + API token)}, the token appended directly,
 * lower-case hex. BEpusdt ({@code app/utils/utils.go}) writes numbers with {@code %v} instead, the same but
 * from a million up ({@code 1e+06}): such a callback is checked in both forms. A nested object, an array or
 * a boolean is not signable there (sign.go's error) and is refused. When {@code epusdt.pid} is set (GMWalletApp
 * sends the merchant's pid), the callback's must be it.
 */
public final class EpusdtSignature {
  /** The field that carries the signature. */
  public static final String SIGNATURE = "signature";
  /** What the three implementations' callbacks send, signature included. */
  private static final Set<String> PARAMETERS = Set.of("trade_id", "order_id", "amount", "actual_amount", "token",
      "receive_address", "block_transaction_id", "status", "pid", "signature");
  /**
   * What only the site's own create-transaction request carries, signed with the same token: a callback with
   * them is such a request's signature with status and trade_id spliced in.
   */
  private static final Set<String> REQUEST_ONLY = Set.of("notify_url", "redirect_url");
  /** A callback has 8-10 fields: a body of more is refused before anything is hashed. */
  private static final int MAX_FIELDS = 64;
  /** Money, never an exponent: Go's encoder writes plain digits between 1e-6 and 1e21. */
  private static final int MAX_NUMBER_LENGTH = 32;
  private static final BigDecimal GO_EXPONENT_FROM = BigDecimal.valueOf(1_000_000);

  private final String token;
  private final String pid;

  /** @param pid the merchant's pid, null when the gateway sends none (assimon/epusdt, BEpusdt) */
  public EpusdtSignature(String token, String pid) {
    this.token = token;
    this.pid = pid;
  }

  /**
   * A callback's top-level fields as its sender signs them: strings as they are, numbers in Go's plain form
   * ({@code 100}, {@code 28.88}), nulls left out; the numbers also as numbers, for BEpusdt's form.
   */
  public record Fields(Map<String, String> values, Map<String, BigDecimal> numbers) {}

  /** The fields of a JSON object body; anything else, or a value sign.go cannot sign, is refused (400). */
  public static Fields read(byte[] body) throws RejectedNotification {
    Map<String, String> values = new LinkedHashMap<>();
    Map<String, BigDecimal> numbers = new LinkedHashMap<>();
    for (Map.Entry<String, Signatures.JsonValue> field : Signatures.flatJson(body, MAX_FIELDS, "epusdt").entrySet()) {
      Signatures.JsonValue value = field.getValue();
      values.put(field.getKey(), value.number() ? plain(field.getKey(), value.text(), numbers) : value.text());
    }
    return new Fields(values, numbers);
  }

  /** The number {@code lexeme} in FormatFloat(x, 'f', -1, 64)'s form: {@code 100.00} is {@code 100}. */
  private static String plain(String name, String lexeme, Map<String, BigDecimal> numbers) throws RejectedNotification {
    if (lexeme.length() > MAX_NUMBER_LENGTH || lexeme.indexOf('e') >= 0 || lexeme.indexOf('E') >= 0) {
      throw RejectedNotification.malformed(Ids.printable(name) + " is not a plain number: '" + Ids.printable(lexeme)
          + "'");
    }
    BigDecimal number = new BigDecimal(lexeme).stripTrailingZeros();
    numbers.put(name, number);
    return number.toPlainString();
  }

  /** The signature of {@code values}, as assimon/epusdt and GMWalletApp/epusdt compute it. */
  public String sign(Map<String, String> values) {
    return Digests.md5Hex(Signatures.sortedContent(values, Set.of(SIGNATURE), String::isEmpty) + token);
  }

  /**
   * Passes when {@code signature} is the signature of the other fields (in BEpusdt's form too, where a number
   * is a million or more), compared in constant time, no value could be re-split into other fields under the
   * same signature, and the pid is the merchant's where one is configured.
   */
  public void verify(Fields fields) throws RejectedNotification {
    String signature = fields.values().get(SIGNATURE);
    if (signature == null || signature.isEmpty()) {
      throw new RejectedNotification(Reason.MISSING_SIGNATURE, "no signature field");
    }
    if (!Digests.sameSign(sign(fields.values()), signature) && !signedWithExponents(fields, signature)) {
      throw new RejectedNotification(Reason.BAD_SIGNATURE,
          "signature does not verify with the configured API token (epusdt.token_file)");
    }
    Signatures.requireUnambiguous(fields.values(), PARAMETERS);
    Signatures.requireNoneOf(fields.values(), REQUEST_ONLY);
    if (pid != null) {
      Ids.requireMerchant("pid", fields.values().get("pid"), pid, "epusdt.pid");
    }
  }

  /** BEpusdt's {@code fmt.Sprintf("%v", float64)}: from a million up, Go's shortest {@code %e} ({@code 1e+06}). */
  private boolean signedWithExponents(Fields fields, String signature) {
    Map<String, String> bepusdt = new LinkedHashMap<>(fields.values());
    boolean differs = false;
    for (Map.Entry<String, BigDecimal> n : fields.numbers().entrySet()) {
      if (n.getValue().abs().compareTo(GO_EXPONENT_FROM) >= 0) {
        bepusdt.put(n.getKey(), goExponent(n.getValue()));
        differs = true;
      }
    }
    return differs && Digests.sameSign(sign(bepusdt), signature);
  }

  /** {@code 1234567.5} as Go's {@code %e} at the shortest precision: {@code 1.2345675e+06}. */
  private static String goExponent(BigDecimal n) {
    String digits = n.unscaledValue().abs().toString();
    int exponent = digits.length() - n.scale() - 1;
    String mantissa = digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
    return (n.signum() < 0 ? "-" : "") + mantissa + "e+" + (exponent < 10 ? "0" : "") + exponent;
  }
}
