package paynotify.testsupport;

import io.vertx.core.json.DecodeException;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Mutations of a notification's payload that know its structure: a form's or query's fields, WeChat v2's flat XML,
 * a JSON body's keys and values. The payload is handled as text of one char per byte (ISO-8859-1), so that any byte
 * can be put in: {@link #latin} writes other text as its UTF-8 bytes. Each method answers the mutated payload and
 * says what it did in {@code what}; null when the payload no longer has that structure (an earlier mutation broke it).
 */
final class PayloadMutants {
  /** Field names the channels read, and a few no channel sends. */
  private static final String[] NAMES = {"sign", "sign_type", "charset", "out_trade_no", "trade_no", "trade_status",
      "total_amount", "app_id", "seller_id", "notify_id", "pid", "money", "type", "param", "payId", "price",
      "reallyPrice", "txn_id", "mc_gross", "invoice", "payment_status", "receiver_email", "test_ipn", "hash", "appid",
      "mch_id", "total_fee", "status", "open_order_id", "trade_order_id", "refund_fee", "out_biz_no", "req_info",
      "result_code", "return_code", "order_id", "amount", "signature", "id", "type", "data", "object", "", "x"};
  /** Values of every kind: empty, signed numbers, overflows, broken escapes, other charsets' bytes, markup. */
  static final String[] VALUES = {"", " ", "0", "-1", "-0.01", "0.00", "1e9", "1E-2", "NaN", "Infinity", "0x1F",
      "99999999999999999999999", "9.995", "9,95", latin("９．９５"), "%", "%zz", "%E4%B8", "%00", "%FF%FE", "%C0%AF",
      "+", "%2B", "&", "=", "null", "true", "[]", "{}", "<x>", "'\"", "\\", latin("中文"), "\u00d6\u00d0\u00ce\u00c4",
      "\u00ff", "\u0000", "%0D%0A", "\t", "2026-13-45 25:61:61", "TRADE_SUCCESS", "TRADE_CLOSED", "WAIT_BUYER_PAY",
      "SUCCESS", "FAIL", "Completed", "Refunded", "OD", "1", "2", "3", "MD5", "RSA", "HMAC-SHA256", "USD", "CNY"};
  /** Charset names, real and not. */
  static final String[] CHARSETS = {"gbk", "GB2312", "gb18030", "utf-16", "UTF-32", "utf8", "latin1", "windows-1252",
      "ISO-2022-CN", "UTF-7", "x-unknown", "", "%00", "../", "\"utf-8\"", "a".repeat(300)};
  private static final String[] BROKEN_ESCAPES = {"%", "%z", "%zz", "%E4%B8", "%%", "%G1", "%0", "%u4e2d", "%25"};
  private static final String[] JSON_VALUES = {"0", "-1", "1.5", "1e400", "-1e400", "123456789012345678901234567890",
      "0.1e-400", "-0", "\"\"", "\"x\"", "\"0\"", "\"1e9\"", "\"9.95\"", "true", "false", "null", "[]", "{}", "[1,2]",
      "{\"a\":{\"b\":{}}}", "\"\\u0000\"", "\"\\ud800\"", "\"" + latin("中文") + "\"", "\"\\x41\"", "\"a\nb\"",
      "\"\u00c3\u0028\"", "NaN", "'x'", "01", "+1", ".5", "1.", "\"" + "x".repeat(15000) + "\""};
  private static final String[] XML_NAMES = {"sign", "sign_type", "total_fee", "cash_fee", "out_trade_no",
      "transaction_id", "result_code", "return_code", "mch_id", "appid", "req_info", "fee_type", "xml", "a", "X"};
  private static final Pattern XML_ELEMENT = Pattern.compile("<([A-Za-z_][\\w.-]*)>(.*?)</\\1>", Pattern.DOTALL);
  /** Stands for a value or key in encoded JSON, replaced by raw text afterwards. */
  private static final String MARK = "\u0001mark";
  private static final String MARK_TEXT = Json.encode(MARK);

  private PayloadMutants() {}

  /** {@code text} as its UTF-8 bytes, one char per byte. */
  static String latin(String text) {
    return new String(text.getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1);
  }

  static <T> T pick(Random random, T[] from) {
    return from[random.nextInt(from.length)];
  }

  // --- forms and queries: name=value pairs joined by '&', still percent-encoded

  static String form(String payload, Random random, StringBuilder what) {
    List<String> pairs = new ArrayList<>(List.of(payload.split("&", -1)));
    int i = random.nextInt(pairs.size());
    String pair = pairs.get(i);
    int eq = pair.indexOf('=');
    String name = eq < 0 ? pair : pair.substring(0, eq);
    String value = eq < 0 ? "" : pair.substring(eq + 1);
    switch (random.nextInt(15)) {
      case 0 -> {
        pairs.remove(i);
        what.append("form: field '").append(name).append("' dropped");
      }
      case 1 -> {
        pairs.add(random.nextInt(pairs.size() + 1), pair);
        what.append("form: field '").append(name).append("' repeated");
      }
      case 2 -> {
        String other = pick(random, VALUES);
        pairs.add(random.nextInt(pairs.size() + 1), name + "=" + other);
        what.append("form: field '").append(name).append("' repeated with '").append(other).append("'");
      }
      case 3 -> {
        String renamed = renamed(name, random);
        pairs.set(i, renamed + (eq < 0 ? "" : "=" + value));
        what.append("form: field '").append(name).append("' renamed '").append(renamed).append("'");
      }
      case 4 -> {
        String injected = pick(random, NAMES) + "=" + pick(random, VALUES);
        pairs.add(random.nextInt(pairs.size() + 1), injected);
        what.append("form: field '").append(injected).append("' injected");
      }
      case 5 -> {
        String other = pick(random, VALUES);
        pairs.set(i, name + "=" + other);
        what.append("form: '").append(name).append("' set to '").append(other).append("'");
      }
      case 6 -> {
        String encoded = value.isEmpty() ? value : percentEncodedChar(value, random);
        pairs.set(i, name + "=" + encoded);
        what.append("form: '").append(name).append("' written with an escape, '").append(encoded).append("'");
      }
      case 7 -> {
        String broken = insert(value, pick(random, BROKEN_ESCAPES), random);
        pairs.set(i, name + "=" + broken);
        what.append("form: broken escape in '").append(name).append("': '").append(broken).append("'");
      }
      case 8 -> {
        pairs.set(i, name + value);
        what.append("form: the '=' of '").append(name).append("' dropped");
      }
      case 9 -> {
        String odd = pick(random, new String[] {"", "=", "=x", "&", "==", "=&="});
        pairs.add(random.nextInt(pairs.size() + 1), odd);
        what.append("form: empty or nameless pair '").append(odd).append("'");
      }
      case 10 -> {
        Collections.shuffle(pairs, random);
        what.append("form: fields shuffled");
      }
      case 11 -> {
        int j = (i + 1 + random.nextInt(Math.max(1, pairs.size() - 1))) % pairs.size(); // another field
        String[] a = (pairs.get(i) + "=").split("=", 2);
        String[] b = (pairs.get(j) + "=").split("=", 2);
        pairs.set(i, a[0] + "=" + b[1].replaceAll("=$", ""));
        pairs.set(j, b[0] + "=" + a[1].replaceAll("=$", ""));
        what.append("form: values of '").append(a[0]).append("' and '").append(b[0]).append("' swapped");
      }
      case 12 -> {
        String charset = pick(random, CHARSETS);
        pairs.removeIf(p -> p.startsWith("charset="));
        pairs.add(random.nextInt(pairs.size() + 1), "charset=" + charset);
        what.append("form: charset=").append(charset);
      }
      case 13 -> {
        int size = pick(random, new Integer[] {300, 4_000, 15_000});
        pairs.set(i, name + "=" + "9".repeat(size));
        what.append("form: '").append(name).append("' ").append(size).append(" bytes long");
      }
      default -> {
        boolean blank = random.nextBoolean();
        int count = blank ? pick(random, new Integer[] {20, 40}) : 600;
        for (int k = 0; k < count; k++) {
          pairs.add("f" + k + (blank ? "=" : "=1"));
        }
        what.append("form: ").append(count).append(blank ? " blank" : "").append(" fields added");
      }
    }
    return String.join("&", pairs);
  }

  private static String renamed(String name, Random random) {
    if (name.isEmpty()) {
      return "x";
    }
    int at = random.nextInt(name.length());
    return switch (random.nextInt(6)) {
      case 0 -> name.substring(0, at) + (char) (name.charAt(at) + 1) + name.substring(at + 1);
      case 1 -> name.toUpperCase();
      case 2 -> name + pick(random, new String[] {"_", "x", "[]", "[0]", " ", "%00", "."});
      case 3 -> pick(random, new String[] {"_", " ", "+", "%20", "a"}) + name;
      case 4 -> pick(random, NAMES);
      default -> percentEncodedChar(name, random);
    };
  }

  /** One character of {@code s} written as its %XX escape: the same text decoded. */
  private static String percentEncodedChar(String s, Random random) {
    int at = random.nextInt(s.length());
    return s.substring(0, at) + String.format("%%%02X", (int) s.charAt(at) & 0xff) + s.substring(at + 1);
  }

  private static String insert(String s, String fragment, Random random) {
    int at = random.nextInt(s.length() + 1);
    return s.substring(0, at) + fragment + s.substring(at);
  }

  // --- WeChat v2's XML: <xml><name><![CDATA[value]]></name>...</xml>

  static String xml(String payload, Random random, StringBuilder what) {
    if (!payload.startsWith("<xml>") || !payload.endsWith("</xml>")) {
      return null;
    }
    List<String[]> elements = new ArrayList<>();
    Matcher m = XML_ELEMENT.matcher(payload.substring(5, payload.length() - 6));
    while (m.find()) {
      elements.add(new String[] {m.group(1), m.group(2)});
    }
    if (elements.isEmpty()) {
      return null;
    }
    int i = random.nextInt(elements.size());
    String name = elements.get(i)[0];
    String content = elements.get(i)[1];
    String head = "<xml>";
    String tail = "</xml>";
    switch (random.nextInt(15)) {
      case 0 -> {
        elements.remove(i);
        what.append("xml: <").append(name).append("> dropped");
      }
      case 1 -> {
        elements.add(random.nextInt(elements.size() + 1), elements.get(i));
        what.append("xml: <").append(name).append("> repeated");
      }
      case 2 -> {
        String other = pick(random, VALUES);
        elements.add(random.nextInt(elements.size() + 1), new String[] {name, cdata(other)});
        what.append("xml: <").append(name).append("> repeated with '").append(other).append("'");
      }
      case 3 -> {
        String renamed = pick(random, new String[] {name + "x", name.toUpperCase(), pick(random, XML_NAMES)});
        elements.set(i, new String[] {renamed, content});
        what.append("xml: <").append(name).append("> renamed <").append(renamed).append(">");
      }
      case 4 -> {
        elements.set(i, new String[] {name, content + "</" + name + "x><" + name + ">"});
        what.append("xml: <").append(name).append("> closed by another name");
      }
      case 5 -> {
        String injected = pick(random, XML_NAMES);
        String value = pick(random, VALUES);
        elements.add(random.nextInt(elements.size() + 1),
            new String[] {injected, random.nextBoolean() ? cdata(value) : value});
        what.append("xml: <").append(injected).append(">").append(value).append(" injected");
      }
      case 6 -> {
        String value = pick(random, VALUES);
        elements.set(i, new String[] {name, random.nextBoolean() ? cdata(value) : value});
        what.append("xml: <").append(name).append("> set to '").append(value).append("'");
      }
      case 7 -> {
        String ref = pick(random, new String[] {"&amp;", "&#49;", "&#x31;", "&lt;", "&undefined;", "&#0;",
            "&#xD800;", "&", "&#99999999;"});
        elements.set(i, new String[] {name, insert(unwrapped(content), ref, random)});
        what.append("xml: reference ").append(ref).append(" in <").append(name).append(">");
      }
      case 8 -> {
        String[] doctype = pick(random, new String[][] {
            {"<!DOCTYPE xml [<!ENTITY e \"9\">]>", "&e;"},
            {"<!DOCTYPE xml [<!ENTITY e SYSTEM \"file:///etc/passwd\">]>", "&e;"},
            {"<!DOCTYPE xml [<!ENTITY e SYSTEM \"http://127.0.0.1:9/x\">]>", "&e;"},
            {"<!DOCTYPE xml [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\">"
                + "<!ENTITY c \"&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;\"><!ENTITY d \"&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;\">]>", "&d;"},
            {"<!DOCTYPE xml [<!ENTITY % p SYSTEM \"http://127.0.0.1:9/p.dtd\"> %p;]>", ""},
            {"<!DOCTYPE xml SYSTEM \"http://127.0.0.1:9/x.dtd\">", ""}});
        head = doctype[0] + head;
        elements.set(i, new String[] {name, doctype[1] + unwrapped(content)});
        what.append("xml: ").append(doctype[0]).append(" and ").append(doctype[1]).append(" in <").append(name)
            .append(">");
      }
      case 9 -> {
        int depth = pick(random, new Integer[] {3, 100, 1_000, 2_000});
        elements.set(i, new String[] {name, "<a>".repeat(depth) + "1" + "</a>".repeat(depth)});
        what.append("xml: ").append(depth).append(" levels nested in <").append(name).append(">");
      }
      case 10 -> {
        String declaration = pick(random, new String[] {"<?xml version=\"1.0\" encoding=\"GBK\"?>",
            "<?xml version=\"1.0\" encoding=\"UTF-16\"?>", "<?xml version=\"1.0\" encoding=\"UTF-32\"?>",
            "<?xml version=\"1.0\" encoding=\"x-unknown\"?>", "<?xml version=\"1.1\"?>", "<?xml version=\"9\"?>",
            "\u00ef\u00bb\u00bf", "<!-- c -->", "<?php x?>", " \n"});
        head = declaration + head;
        what.append("xml: prolog '").append(declaration).append("'");
      }
      case 11 -> {
        String attribute = pick(random, new String[] {" a=\"1\"", " xmlns=\"urn:x\"", " xmlns:w=\"urn:x\"", " a=1",
            " a=\"1\" a=\"2\""});
        if (random.nextBoolean()) {
          head = "<xml" + attribute + ">";
        } else {
          elements.set(i, new String[] {name + attribute, content});
          // the close tag names the element only: written below from the pair's name
        }
        what.append("xml: attribute '").append(attribute).append("'");
      }
      case 12 -> {
        String[] root = pick(random, new String[][] {{"<xmlx>", "</xmlx>"}, {"<xml>", "</xml><xml></xml>"},
            {"<xml>", "</xml>trailing"}, {"<xml>", ""}, {"", ""}, {"<w:xml xmlns:w=\"urn:x\">", "</w:xml>"}});
        head = root[0];
        tail = root[1];
        what.append("xml: root written '").append(root[0]).append("...").append(root[1]).append("'");
      }
      case 13 -> {
        String value = unwrapped(content);
        String odd = pick(random, new String[] {"<![CDATA[" + value, "<![CDATA[<![CDATA[" + value + "]]>]]>",
            cdata(value.substring(0, value.length() / 2)) + cdata(value.substring(value.length() / 2)),
            " " + cdata(value) + " ", "<![CDATA[" + value + "]]]>", value + "]]>"});
        elements.set(i, new String[] {name, odd});
        what.append("xml: <").append(name).append("> written '").append(odd).append("'");
      }
      default -> {
        boolean blank = random.nextBoolean();
        int count = blank ? 40 : 600;
        for (int k = 0; k < count; k++) {
          elements.add(new String[] {"f" + k, blank ? "" : "1"});
        }
        what.append("xml: ").append(count).append(blank ? " empty" : "").append(" elements added");
      }
    }
    StringBuilder xml = new StringBuilder(head);
    for (String[] e : elements) {
      String closeName = e[0].split(" ", 2)[0];
      xml.append('<').append(e[0]).append('>').append(e[1]).append("</").append(closeName).append('>');
    }
    return xml.append(tail).toString();
  }

  private static String cdata(String value) {
    return "<![CDATA[" + value + "]]>";
  }

  private static String unwrapped(String content) {
    return content.startsWith("<![CDATA[") && content.endsWith("]]>") ? content.substring(9, content.length() - 3)
        : content;
  }

  // --- JSON: a value put in by a mark in the encoded text, so that any raw text can take its place

  /** A place in the JSON tree: a member of {@code object}, or an element of {@code array}. */
  private record Slot(Map<String, Object> object, String key, List<Object> array, int index) {
    Object value() {
      return object != null ? object.get(key) : array.get(index);
    }

    void set(Object value) {
      if (object != null) {
        object.put(key, value);
      } else {
        array.set(index, value);
      }
    }

    String name() {
      return object != null ? key : "[" + index + "]";
    }
  }

  static String json(String payload, Random random, StringBuilder what) {
    JsonObject root;
    try {
      root = new JsonObject(new String(payload.getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8));
    } catch (DecodeException | ClassCastException e) {
      return null;
    }
    List<Slot> slots = new ArrayList<>();
    collect(root.getMap(), slots);
    if (slots.isEmpty()) {
      return null;
    }
    Slot slot = slots.get(random.nextInt(slots.size()));
    String raw = null; // what the mark stands for
    String key = null; // a key the second mark stands for
    switch (random.nextInt(11)) {
      case 0 -> {
        raw = pick(random, JSON_VALUES);
        slot.set(MARK);
        what.append("json: ").append(slot.name()).append(" set to ").append(abbreviated(raw));
      }
      case 1 -> {
        if (slot.object() != null) {
          slot.object().remove(slot.key());
        } else {
          slot.array().remove(slot.index());
        }
        what.append("json: ").append(slot.name()).append(" removed");
      }
      case 2 -> {
        if (slot.object() == null) {
          return null;
        }
        Object value = slot.object().remove(slot.key());
        String renamed = renamed(slot.key(), random);
        slot.object().put(renamed, value);
        what.append("json: key ").append(slot.key()).append(" renamed '").append(renamed).append("'");
      }
      case 3 -> {
        if (slot.object() == null) {
          return null;
        }
        raw = random.nextBoolean() ? latin(Json.encode(slot.value())) : pick(random, JSON_VALUES);
        key = slot.key();
        slot.object().put(MARK + "k", MARK);
        what.append("json: key ").append(key).append(" repeated with ").append(abbreviated(raw));
      }
      case 4 -> {
        raw = pick(random, JSON_VALUES);
        Map<String, Object> object = slot.object() != null ? slot.object() : root.getMap();
        String name = pick(random, NAMES);
        object.put(name, MARK);
        what.append("json: key '").append(name).append("' injected as ").append(abbreviated(raw));
      }
      case 5 -> {
        int depth = pick(random, new Integer[] {1, 10, 500, 1_000, 2_000, 7_000});
        boolean arrays = random.nextBoolean();
        String value = latin(Json.encode(slot.value()));
        raw = arrays ? "[".repeat(depth) + value + "]".repeat(depth) : "{\"a\":".repeat(depth) + value
            + "}".repeat(depth);
        slot.set(MARK);
        what.append("json: ").append(slot.name()).append(" nested in ").append(depth)
            .append(arrays ? " arrays" : " objects");
      }
      case 6 -> {
        if (!(slot.value() instanceof Number)) {
          return null;
        }
        String value = Json.encode(slot.value());
        raw = pick(random, new String[] {value + "0", value + "e0", "0" + value, "-" + value, value + ".0",
            value + "E+00", " " + value + " "});
        slot.set(MARK);
        what.append("json: ").append(slot.name()).append(" written ").append(abbreviated(raw));
      }
      case 7 -> {
        if (!(slot.value() instanceof String s)) {
          return null;
        }
        StringBuilder escaped = new StringBuilder("\"");
        s.chars().forEach(c -> escaped.append(String.format("\\u%04x", c)));
        raw = random.nextBoolean() ? escaped.append('"').toString()
            : "\"" + insert(latin(Json.encode(s)).replaceAll("^\"|\"$", ""), pick(random, new String[] {"\\ud800",
                "\\u0000", "\\x41", "\n", "\u00c3\u0028", "\\", "\\uZZZZ", latin("\ud83d\ude00")}), random) + "\"";
        slot.set(MARK);
        what.append("json: string ").append(slot.name()).append(" written ").append(abbreviated(raw));
      }
      case 8 -> {
        String text = latin(root.encode());
        String[] odd = pick(random, new String[][] {{"\u00ef\u00bb\u00bf", ""}, {"", "x"}, {"", "}"},
            {"", text}, {"", "\u0000"}, {"[", "]"}, {"\"", "\""}, {"\n \t", "\n"}, {"/*c*/", ""}, {"", ","}});
        what.append("json: written '").append(abbreviated(odd[0])).append("' + document + '")
            .append(abbreviated(odd[1])).append("'");
        return odd[0] + text + odd[1];
      }
      case 9 -> {
        if (slot.object() == null) {
          return null;
        }
        String text = latin(root.encode());
        String quoted = latin(Json.encode(slot.key())) + ":";
        String bare = latin(slot.key());
        String odd = pick(random, new String[] {"'" + bare + "':", bare + ":", quoted.replace(":", " : "),
            quoted.toUpperCase()});
        what.append("json: key written ").append(odd);
        return text.replaceFirst(Pattern.quote(quoted), Matcher.quoteReplacement(odd));
      }
      default -> {
        boolean keys = random.nextBoolean();
        if (keys) {
          for (int k = 0; k < 2_000; k++) {
            root.put("k" + k, k);
          }
        } else {
          slot.set(new JsonArray(Collections.nCopies(5_000, 1)));
        }
        what.append("json: ").append(keys ? "2000 keys added" : slot.name() + " set to 5000 numbers");
      }
    }
    String text = latin(root.encode());
    if (key != null) {
      text = text.replace(Json.encode(MARK + "k"), latin(Json.encode(key)));
    }
    return raw == null ? text : text.replace(MARK_TEXT, raw);
  }

  @SuppressWarnings("unchecked")
  private static void collect(Object node, List<Slot> slots) {
    if (node instanceof JsonObject o) {
      collect(o.getMap(), slots);
    } else if (node instanceof JsonArray a) {
      collect(a.getList(), slots);
    } else if (node instanceof Map<?, ?> map) {
      Map<String, Object> object = (Map<String, Object>) map;
      for (String k : List.copyOf(object.keySet())) {
        slots.add(new Slot(object, k, null, -1));
        collect(object.get(k), slots);
      }
    } else if (node instanceof List<?> list) {
      List<Object> array = (List<Object>) list;
      for (int i = 0; i < array.size(); i++) {
        slots.add(new Slot(null, null, array, i));
        collect(array.get(i), slots);
      }
    }
  }

  private static String abbreviated(String s) {
    return s.length() <= 40 ? s : s.substring(0, 20) + "...(" + s.length() + " chars)";
  }
}
