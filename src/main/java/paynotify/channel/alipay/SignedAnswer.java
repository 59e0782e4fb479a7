package paynotify.channel.alipay;

import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;

/**
 * Alipay signs the exact text of an answer's {@code ..._response} object, as sent, and puts the signature
 * beside it: {@code {"alipay_trade_query_response":{...},"sign":"..."}}. Re-encoding the parsed object would
 * change spacing, escapes and key order, so the text is cut out of the body: from the member's opening brace
 * to its matching close, strings and their escapes skipped.
 */
final class SignedAnswer {
  private SignedAnswer() {}

  /** The text of the object at top-level member {@code name} of {@code body}, or null when there is none. */
  static String text(String body, String name) {
    int depth = 0;
    int i = 0;
    int n = body.length();
    while (i < n) {
      char c = body.charAt(i);
      if (c == '"') {
        int end = stringEnd(body, i);
        if (end < 0) {
          return null;
        }
        if (depth == 1 && body.substring(i + 1, end).equals(name)) {
          int value = skipSpace(body, end + 1);
          if (value < n && body.charAt(value) == ':') {
            value = skipSpace(body, value + 1);
            int close = value < n && body.charAt(value) == '{' ? objectEnd(body, value) : -1;
            return close < 0 ? null : body.substring(value, close + 1);
          }
        }
        i = end + 1;
      } else {
        depth += c == '{' || c == '[' ? 1 : c == '}' || c == ']' ? -1 : 0;
        i++;
      }
    }
    return null;
  }

  /** The top-level {@code sign}, or null. */
  static String sign(String body) {
    return string(body, "sign");
  }

  /** The top-level string member {@code name} (the sign, the certificate's {@code alipay_cert_sn}), or null. */
  static String string(String body, String name) {
    try {
      Object value = new JsonObject(body).getValue(name);
      return value instanceof String s ? s : null;
    } catch (DecodeException e) {
      return null;
    }
  }

  /** The index of the quote closing the string that opens at {@code open}, or -1. */
  private static int stringEnd(String s, int open) {
    for (int i = open + 1; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\\') {
        i++;
      } else if (c == '"') {
        return i;
      }
    }
    return -1;
  }

  /** The index of the brace closing the object that opens at {@code open}, or -1. */
  private static int objectEnd(String s, int open) {
    int depth = 0;
    for (int i = open; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '"') {
        i = stringEnd(s, i);
        if (i < 0) {
          return -1;
        }
      } else if (c == '{' || c == '[') {
        depth++;
      } else if ((c == '}' || c == ']') && --depth == 0) {
        return i;
      }
    }
    return -1;
  }

  private static int skipSpace(String s, int i) {
    while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
      i++;
    }
    return i;
  }
}
