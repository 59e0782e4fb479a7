package paynotify.testsupport;

import io.vertx.core.json.Json;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.StringJoiner;
import java.util.TreeMap;
import paynotify.channel.Money;

/**
 * TokenPay notifications as LightCountry/TokenPay's OrderNotifyService makes them, signed as it signs them, written
 * here apart from the channel's code: ObjectExtension.ToDic's fields (a SortedDictionary, null and "" removed), each
 * written {@code $"{Key}={Value}"} (a string as it is, an int in decimal), joined with {@code &}, the ApiToken
 * appended, MD5 in lower-case hex. The JSON is written here too, in either serialiser's way of escaping.
 */
public final class TokenPayNotifications {
  public static final String PATH = "/notify/tokenpay";
  /** The 异步通知密钥 of Wiki/docs.md's examples. */
  public static final String WIKI_KEY = "666";
  /** The signature Wiki/docs.md gives for {@link #wikiExample()} with {@link #WIKI_KEY}. */
  public static final String WIKI_SIGNATURE = "e5eaa888cd9e80b5c09a0698981757c8";
  public static final String API_TOKEN = "tokenpay_api_token_of_the_tests";
  public static final String OTHER_API_TOKEN = "tokenpay_api_token_of_another_site";
  /** A TRON transaction: 64 hex digits, no 0x (the Wiki's). */
  public static final String TRON_TX = "375859c36dc5f5d227b10912b5ec70d36dd34446028064956cb60cdbb74432f5";

  private TokenPayNotifications() {}

  /** Wiki/docs.md §2's example (before PayAmount and IsDynamicAmount existed), in its order, without Signature. */
  public static Map<String, Object> wikiExample() {
    Map<String, Object> f = new LinkedHashMap<>();
    f.put("ActualAmount", "15");
    f.put("Amount", "34.91");
    f.put("BaseCurrency", "CNY");
    f.put("BlockChainName", "TRON");
    f.put("BlockTransactionId", TRON_TX);
    f.put("Currency", "TRX");
    f.put("CurrencyName", "TRX");
    f.put("FromAddress", "TYYjzt6AWhe9hAg9DrhiYXEWKDksyohgQa");
    f.put("Id", "63234df7-55bf-93fc-0010-67be493c0c27");
    f.put("OutOrderId", "E6COE6FGZMO5AXSK");
    f.put("PayTime", "2022-09-15 16:08:39");
    f.put("Status", 1);
    f.put("ToAddress", "TKGTx4pCKiKQbk8evXHTborfZn754TGViP");
    return f;
  }

  /**
   * A paid order as today's ToDic sends it: ActualAmount a decimal(15,2) as C# writes it ({@code 19.99}), paid
   * exactly (IsDynamicAmount 0), in USDT on TRON; OrderUserKey the buyer's e-mail, as dujiaoka's plugin sends it.
   */
  public static Map<String, Object> paid(String orderNo, String id, long cents) {
    Map<String, Object> f = new LinkedHashMap<>();
    f.put("Id", id);
    f.put("BlockTransactionId", TRON_TX);
    f.put("OutOrderId", orderNo);
    f.put("OrderUserKey", "buyer@example.com");
    f.put("PayTime", "2026-12-06 16:08:39");
    f.put("Amount", "2.7581");
    f.put("ActualAmount", Money.format(cents));
    f.put("Currency", "USDT_TRC20");
    f.put("FromAddress", "TYYjzt6AWhe9hAg9DrhiYXEWKDksyohgQa");
    f.put("ToAddress", "TKGTx4pCKiKQbk8evXHTborfZn754TGViP");
    f.put("Status", 1);
    f.put("BaseCurrency", "CNY");
    f.put("BlockChainName", "TRON");
    f.put("CurrencyName", "USDT");
    f.put("PayAmount", "2.7581");
    f.put("IsDynamicAmount", 0);
    return f;
  }

  /** The Signature of {@code fields} (its own Signature, nulls and "" left out) with {@code apiToken}. */
  public static String signature(Map<String, Object> fields, String apiToken) {
    StringJoiner signed = new StringJoiner("&");
    new TreeMap<>(fields).forEach((k, v) -> {
      String text = v instanceof BigDecimal d ? d.toPlainString() : v == null ? null : v.toString();
      if (!k.equals("Signature") && text != null && !text.isEmpty()) {
        signed.add(k + "=" + text);
      }
    });
    return Md5.hex(signed + apiToken);
  }

  /** {@code fields} with their Signature by {@code apiToken}. */
  public static Map<String, Object> signed(Map<String, Object> fields, String apiToken) {
    Map<String, Object> signed = new LinkedHashMap<>(fields);
    signed.put("Signature", signature(fields, apiToken));
    return signed;
  }

  /** Signed with the test ApiToken and posted. */
  public static Notification signed(Map<String, Object> fields) {
    return post(signed(fields, API_TOKEN));
  }

  /** The fields as a JSON POST, as Newtonsoft.Json writes them: only {@code "}, {@code \} and controls escaped. */
  public static Notification post(Map<String, Object> fields) {
    return post(fields, false);
  }

  /**
   * The fields as a JSON POST, as System.Text.Json's default encoder writes them: besides, {@code & + < > ' `} and
   * every non-ASCII character as {@code \}{@code uXXXX}.
   */
  public static Notification postEscaped(Map<String, Object> fields) {
    return post(fields, true);
  }

  private static Notification post(Map<String, Object> fields, boolean escaped) {
    StringJoiner json = new StringJoiner(",", "{", "}");
    fields.forEach((k, v) -> json.add(string(k, escaped) + ":" + (v instanceof String s ? string(s, escaped)
        : v instanceof BigDecimal d ? d.toPlainString() : String.valueOf(v))));
    return Notification.post(PATH, "application/json; charset=utf-8", json.toString());
  }

  private static String string(String s, boolean escaped) {
    if (!escaped) {
      return Json.encode(s);
    }
    StringBuilder out = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      if (c < 0x20 || c > 0x7E || "\"\\&+<>'`".indexOf(c) >= 0) {
        out.append(String.format("\\u%04X", (int) c));
      } else {
        out.append(c);
      }
    }
    return out.append('"').toString();
  }
}
