package paynotify.channel.tokenpay;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import paynotify.channel.Ids;
import paynotify.channel.RejectedNotification.Reason;
import paynotify.channel.RejectedNotification;
import paynotify.channel.Signatures;
import paynotify.crypto.Digests;

/**
 * TokenPay's {@code Signature}, as OrderNotifyService.Notify computes it (LightCountry/TokenPay): {@code md5(k=v
 * of every field but Signature, null and "" left out, sorted by name, joined with &, then the ApiToken appended
 * directly)}, lower-case hex, over the C# values before they are serialised. So the receiver signs what it
 * decodes: a string's text whether the serialiser escaped {@code &} and non-ASCII characters or not, a number as
 * its literal ({@code Status=1}, {@code IsDynamicAmount=0}: 0 is no empty value). Every field
 * received is signed, known or not: TokenPay adds fields over versions (PayAmount, IsDynamicAmount) and its docs
 * ask receivers to sign the body's fields, not a list. TokenPay sorts with .NET's default (culture-aware) string
 * order, here the ordinal one: the same for every pair of the names it sends, where at the first character two of
 * them differ both are letters of one case (a later field that differs from another first by case alone would
 * sort otherwise there, and fail to verify rather than pass).
 */
public final class TokenPaySignature {
  /** The field that carries the signature. */
  public static final String SIGNATURE = "Signature";
  /** What TokenPay's notifications send (ObjectExtension.ToDic), Signature included. */
  private static final Set<String> PARAMETERS = Set.of("Id", "BlockTransactionId", "OutOrderId", "OrderUserKey",
      "PayTime", "Amount", "ActualAmount", "Currency", "FromAddress", "ToAddress", "Status", "PassThroughInfo",
      "BaseCurrency", "BlockChainName", "CurrencyName", "PayAmount", "IsDynamicAmount", SIGNATURE);
  /**
   * What only the site's own CreateOrder request carries, signed with the same ApiToken: a notification with them
   * is such a request's signature with fields spliced in.
   */
  private static final Set<String> REQUEST_ONLY = Set.of("NotifyUrl", "RedirectUrl");
  /** A notification has 13-18 fields: a body of more is refused before anything is hashed. */
  private static final int MAX_FIELDS = 64;
  /** Its numbers are C# ints (Status, IsDynamicAmount); an amount sent as a number is a few digits too. */
  private static final int MAX_NUMBER_LENGTH = 32;

  private final String apiToken;

  public TokenPaySignature(String apiToken) {
    this.apiToken = apiToken;
  }

  /**
   * The top-level fields of a JSON object body as TokenPay signs them: strings decoded, numbers as their literal,
   * nulls left out. Anything else (a nested value, a boolean, a name twice, a number longer than any it sends) is
   * refused (400).
   */
  public static Map<String, String> read(byte[] body) throws RejectedNotification {
    Map<String, String> values = new LinkedHashMap<>();
    for (Map.Entry<String, Signatures.JsonValue> field : Signatures.flatJson(body, MAX_FIELDS, "TokenPay").entrySet()) {
      String text = field.getValue().text();
      if (field.getValue().number() && text.length() > MAX_NUMBER_LENGTH) {
        throw RejectedNotification.malformed(Ids.printable(field.getKey()) + " is a number of " + text.length()
            + " characters");
      }
      values.put(field.getKey(), text);
    }
    return values;
  }

  /** The signature of {@code values} (Signature itself, null and "" left out) with this ApiToken. */
  public String sign(Map<String, String> values) {
    return Digests.md5Hex(Signatures.sortedContent(values, Set.of(SIGNATURE), String::isEmpty) + apiToken);
  }

  /**
   * Passes when {@code Signature} is the signature of the other fields, compared in constant time, no value could
   * be re-split into other fields under the same signature, and no field is one of the site's CreateOrder request.
   */
  public void verify(Map<String, String> values) throws RejectedNotification {
    String signature = values.get(SIGNATURE);
    if (signature == null || signature.isEmpty()) {
      throw new RejectedNotification(Reason.MISSING_SIGNATURE, "no Signature field");
    }
    if (!Digests.sameSign(sign(values), signature)) {
      throw new RejectedNotification(Reason.BAD_SIGNATURE,
          "Signature does not verify with the configured ApiToken (tokenpay.key_file)");
    }
    Signatures.requireUnambiguous(values, PARAMETERS);
    Signatures.requireNoneOf(values, REQUEST_ONLY);
  }
}
