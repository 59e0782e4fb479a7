package paynotify.testsupport;

import io.vertx.core.json.Json;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.StringJoiner;
import java.util.TreeMap;

/**
 * epusdt callbacks in the shapes of its three servers (assimon/epusdt, GMWalletApp/epusdt, v03413/BEpusdt),
 * signed as their Go {@code sign} functions do, written here apart from the channel's code. The JSON is
 * written here too, so that a test chooses each number's lexeme ({@code 100}, {@code 28.880}).
 */
public final class EpusdtNotifications {
  public static final String PATH = "/notify/epusdt";
  /** The example token of the API docs (assimon wiki/API.md). */
  public static final String TOKEN = "epusdt_password_xasddawqe";
  public static final String OTHER_TOKEN = "epusdt_token_of_another_site";
  /** GMWalletApp's merchant id, as in its wiki. */
  public static final String PID = "1000";
  public static final String OTHER_PID = "1001";
  public static final String TRON_ADDRESS = "TNEns8t9jbWENbStkQdVQtHMGpbsYsQjZK";
  /** A TRON transaction: 64 hex digits, no 0x. */
  public static final String TRON_TX = "e80d85cc512dcafa230326364ace8959938fa4cf78fadd1f0c01b8b5f542ee83";
  /** An EVM transaction: 0x and 64 hex digits, 66 characters. */
  public static final String EVM_TX = "0x1f2e3d4c5b6a79880716253443526170e1f2d3c4b5a69788796a5b4c3d2e1f00";

  /** A JSON number, written as {@code lexeme}. */
  public record Num(String lexeme) {}

  private EpusdtNotifications() {}

  /**
   * assimon/epusdt: token is the receiving address, and block_transaction_id is "" (its callback serialises
   * the order as read before the transaction was written to it).
   */
  public static Map<String, Object> assimon(String orderNo, String tradeNo, String amount) {
    Map<String, Object> f = new LinkedHashMap<>();
    f.put("trade_id", tradeNo);
    f.put("order_id", orderNo);
    f.put("amount", new Num(amount));
    f.put("actual_amount", new Num("4.12"));
    f.put("token", TRON_ADDRESS);
    f.put("block_transaction_id", "");
    f.put("status", new Num("2"));
    return f;
  }

  /** GMWalletApp/epusdt: pid and receive_address besides, token the coin's symbol, the transaction filled in. */
  public static Map<String, Object> gmwallet(String orderNo, String tradeNo, String amount) {
    Map<String, Object> f = new LinkedHashMap<>();
    f.put("pid", PID);
    f.put("trade_id", tradeNo);
    f.put("order_id", orderNo);
    f.put("amount", new Num(amount));
    f.put("actual_amount", new Num("4.12"));
    f.put("receive_address", TRON_ADDRESS);
    f.put("token", "USDT");
    f.put("block_transaction_id", TRON_TX);
    f.put("status", new Num("2"));
    return f;
  }

  /** v03413/BEpusdt: actual_amount a string. */
  public static Map<String, Object> bepusdt(String orderNo, String tradeNo, String amount) {
    Map<String, Object> f = assimon(orderNo, tradeNo, amount);
    f.put("actual_amount", "4.12");
    f.put("block_transaction_id", TRON_TX);
    return f;
  }

  /** The amount of {@code cents} as Go's encoding/json writes a float64: shortest, no trailing zeros. */
  public static String amount(long cents) {
    return BigDecimal.valueOf(cents, 2).stripTrailingZeros().toPlainString();
  }

  /**
   * md5 of the fields but signature, null and "", sorted, joined k=v with &amp;, the token appended as is.
   * The servers sign the float64 a number parsed to, written by strconv.FormatFloat(x, 'f', -1, 64): for
   * amounts of a few decimals that is the lexeme without its trailing zeros.
   */
  public static String signature(Map<String, Object> fields, String token) {
    StringJoiner signed = new StringJoiner("&");
    new TreeMap<>(fields).forEach((k, v) -> {
      String text = v instanceof Num n ? new BigDecimal(n.lexeme()).stripTrailingZeros().toPlainString() : (String) v;
      if (!k.equals("signature") && text != null && !text.isEmpty()) {
        signed.add(k + "=" + text);
      }
    });
    return Md5.hex(signed + token);
  }

  /** {@code fields} with their signature by {@code token}. */
  public static Map<String, Object> signed(Map<String, Object> fields, String token) {
    Map<String, Object> signed = new LinkedHashMap<>(fields);
    signed.put("signature", signature(fields, token));
    return signed;
  }

  /** Signed with the test token and posted. */
  public static Notification signed(Map<String, Object> fields) {
    return post(signed(fields, TOKEN));
  }

  /** The fields as they are, a JSON POST; a value other than a string, {@link Num} or null is put raw. */
  public static Notification post(Map<String, Object> fields) {
    StringJoiner json = new StringJoiner(",", "{", "}");
    fields.forEach((k, v) -> json.add(Json.encode(k) + ":"
        + (v instanceof Num n ? n.lexeme() : v instanceof String s ? Json.encode(s) : String.valueOf(v))));
    return Notification.post(PATH, "application/json", json.toString());
  }
}
