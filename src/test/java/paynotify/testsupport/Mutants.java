package paynotify.testsupport;

import static paynotify.testsupport.PayloadMutants.latin;
import static paynotify.testsupport.PayloadMutants.pick;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

/**
 * Mutated copies of a genuine notification: what a broken proxy, a hostile sender or another version of a platform
 * might send to a notify URL. Each copy is one mutation, now and then two, of the payload's bytes (bits flipped, cut
 * short, a range removed or repeated, a fragment put in, random or oversized), of its structure
 * ({@link PayloadMutants}: fields, elements, keys and values), of the headers (Content-Type missing, wrong or with an
 * odd charset, huge, repeated, many) or of the request (method, path, a chunked body). The payload is the query of a
 * GET and the body otherwise. Copy {@code index} of a seed is the same on every run and can be made alone.
 */
public final class Mutants {
  /** One mutated copy and what was done to it. */
  public record Mutant(String kind, RawRequest request) {}

  private enum Format { FORM, XML, JSON }

  private static final String[] FORM_FRAGMENTS = {"&", "=", "%", "%zz", "%E4%B8", "+", "&&", "==", "%00", "%FF",
      "sign=", "type=", "price=", "&charset=gbk", latin("中文"), "\u0000", ";", "#", "?", "&sign=&", "%26", "%3D"};
  private static final String[] XML_FRAGMENTS = {"<", ">", "</xml>", "<xml>", "<![CDATA[", "]]>", "&", "&amp;",
      "&lt;", "&#0;", "&xxe;", "<!DOCTYPE xml>", "<?xml version=\"1.0\"?>", "<!--", "-->", "<a>", "</a>", "\u0000",
      latin("中文"), "<sign>x</sign>"};
  private static final String[] JSON_FRAGMENTS = {"{", "}", "[", "]", ",", ":", "\"", "\\", "\\u0000", "\\ud800",
      "null", "true", "1e400", "-0", "/*", "*/", "\u0000", latin("中文"), ",\"id\":1", "\"\":\"\"", "NaN"};
  private static final String[] CONTENT_TYPES = {"text/plain", "application/json", "text/xml",
      "application/x-www-form-urlencoded", "multipart/form-data; boundary=----x", "*/*", "", "garbage",
      "application/json; charset=utf-8; charset=latin1", "text/html; charset=GB18030", "application/xml",
      "application/x-www-form-urlencoded; charset=", "text/xml; charset=\"utf-8\"", latin("中文/类型")};
  private static final String[] METHODS = {"PUT", "DELETE", "PATCH", "OPTIONS", "HEAD", "FOO", "CONNECT"};

  private Mutants() {}

  /** Copy {@code index} of {@code genuine} for {@code seed}. */
  public static Mutant of(RawRequest genuine, long seed, int index) {
    Random random = new Random(seed ^ (index * 0x9E3779B97F4A7C15L));
    Format format = format(genuine);
    StringBuilder what = new StringBuilder();
    RawRequest mutant = once(genuine, format, random, what);
    if (random.nextInt(8) == 0) {
      what.append(" + ");
      mutant = once(mutant, format, random, what);
    }
    return new Mutant(what.toString(), mutant);
  }

  private static Format format(RawRequest genuine) {
    if (genuine.method().equals("GET")) {
      return Format.FORM;
    }
    String type = String.valueOf(genuine.header("Content-Type")).toLowerCase(Locale.ROOT);
    return type.contains("json") ? Format.JSON : type.contains("xml") ? Format.XML : Format.FORM;
  }

  /** The structure 45 times in 100 (the bytes when it is broken already), the bytes 30, headers 15, request 10. */
  private static RawRequest once(RawRequest r, Format format, Random random, StringBuilder what) {
    int family = random.nextInt(100);
    if (family < 45) {
      String payload = payload(r);
      String mutated = switch (format) {
        case FORM -> PayloadMutants.form(payload, random, what);
        case XML -> PayloadMutants.xml(payload, random, what);
        case JSON -> PayloadMutants.json(payload, random, what);
      };
      if (mutated != null) {
        return withPayload(r, mutated);
      }
    }
    if (family < 75) {
      return bytes(r, format, random, what);
    }
    return family < 90 ? headers(r, random, what) : request(r, random, what);
  }

  /** The query of a GET, else the body, one char per byte. */
  private static String payload(RawRequest r) {
    if (r.method().equals("GET")) {
      return r.query() == null ? "" : r.query();
    }
    return new String(r.body(), StandardCharsets.ISO_8859_1);
  }

  private static RawRequest withPayload(RawRequest r, String payload) {
    if (r.method().equals("GET")) {
      return r.withTarget(r.path() + "?" + onRequestLine(payload));
    }
    return r.withBody(payload.getBytes(StandardCharsets.ISO_8859_1));
  }

  /**
   * What cannot stand on a request line (controls, space, '#', bytes beyond ASCII) as its %XX escape, as an HTTP
   * client writes it: the channel reads the same bytes once the query is decoded.
   */
  private static String onRequestLine(String query) {
    StringBuilder out = new StringBuilder();
    for (char c : query.toCharArray()) {
      if (c <= 0x20 || c >= 0x7f || c == '#') {
        out.append(String.format("%%%02X", (int) c & 0xff));
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }

  private static RawRequest bytes(RawRequest r, Format format, Random random, StringBuilder what) {
    String p = payload(r);
    int at = p.isEmpty() ? 0 : random.nextInt(p.length());
    String mutated;
    switch (random.nextInt(11)) {
      case 0 -> {
        char[] chars = p.toCharArray();
        int flips = 1 + random.nextInt(3);
        for (int f = 0; f < flips && chars.length > 0; f++) {
          int i = random.nextInt(chars.length);
          chars[i] = (char) ((chars[i] ^ (1 << random.nextInt(8))) & 0xff);
        }
        mutated = new String(chars);
        what.append("bytes: ").append(flips).append(" bits flipped");
      }
      case 1 -> {
        char b = pick(random, new Character[] {'\u0000', '\u00ff', '&', '=', '%', '+', '<', '>', '"', '{', '}', '[',
            ']', ',', ':', '\\', '\n', '\u0080', '\u00c3', '\u00e4', (char) random.nextInt(256)});
        mutated = p.isEmpty() ? String.valueOf(b) : p.substring(0, at) + b + p.substring(at + 1);
        what.append(String.format("bytes: byte %d set to 0x%02x", at, (int) b));
      }
      case 2 -> {
        mutated = p.substring(0, at);
        what.append("bytes: cut to ").append(at).append(" of ").append(p.length());
      }
      case 3 -> {
        int length = Math.min(1 + random.nextInt(32), p.length() - at);
        mutated = p.substring(0, at) + p.substring(at + length);
        what.append("bytes: ").append(length).append(" removed at ").append(at);
      }
      case 4 -> {
        int length = Math.min(1 + random.nextInt(64), p.length() - at);
        int to = p.isEmpty() ? 0 : random.nextInt(p.length());
        mutated = p.substring(0, to) + p.substring(at, at + length) + p.substring(to);
        what.append("bytes: ").append(length).append(" at ").append(at).append(" repeated at ").append(to);
      }
      case 5 -> {
        String fragment = pick(random, switch (format) {
          case FORM -> FORM_FRAGMENTS;
          case XML -> XML_FRAGMENTS;
          case JSON -> JSON_FRAGMENTS;
        });
        mutated = p.substring(0, at) + fragment + p.substring(at);
        what.append("bytes: '").append(fragment).append("' put in at ").append(at);
      }
      case 6 -> {
        char[] chars = new char[random.nextInt(2_049)];
        for (int i = 0; i < chars.length; i++) {
          chars[i] = (char) random.nextInt(256);
        }
        mutated = new String(chars);
        what.append("bytes: ").append(chars.length).append(" random bytes");
      }
      case 7 -> {
        StringBuilder text = new StringBuilder();
        String[] fragments = format == Format.XML ? XML_FRAGMENTS : format == Format.JSON ? JSON_FRAGMENTS
            : FORM_FRAGMENTS;
        for (int f = random.nextInt(40); f >= 0; f--) {
          text.append(pick(random, fragments));
        }
        mutated = text.toString();
        what.append("bytes: random fragments");
      }
      case 8 -> {
        mutated = "";
        what.append("bytes: empty");
      }
      case 9 -> {
        boolean get = r.method().equals("GET");
        int size = get ? pick(random, new Integer[] {5_000, 9_000}) : pick(random, new Integer[] {16_385, 70_000});
        mutated = padded(p, format, size);
        what.append("bytes: padded to ").append(size).append(" bytes");
      }
      default -> {
        mutated = padded(p, format, 16_000);
        what.append("bytes: padded to 16000 bytes, within the body limit");
      }
    }
    return withPayload(r, mutated);
  }

  /** {@code p} grown to {@code size} bytes by what its format ignores or no channel reads: a field, or white space. */
  private static String padded(String p, Format format, int size) {
    String pad = format == Format.FORM ? "&pad=" : " ";
    return p + pad + (format == Format.FORM ? "x" : " ").repeat(Math.max(0, size - p.length() - pad.length()));
  }

  private static RawRequest headers(RawRequest r, Random random, StringBuilder what) {
    List<Map.Entry<String, String>> headers = new ArrayList<>(r.headers());
    int i = random.nextInt(headers.size());
    String name = headers.get(i).getKey();
    String value = headers.get(i).getValue();
    String contentType = r.header("Content-Type") == null ? "application/x-www-form-urlencoded"
        : r.header("Content-Type").split(";")[0];
    switch (random.nextInt(10)) {
      case 0 -> {
        headers.remove(i);
        what.append("headers: ").append(name).append(" removed");
      }
      case 1 -> {
        headers.removeIf(h -> h.getKey().equalsIgnoreCase("Content-Type"));
        what.append("headers: Content-Type removed");
      }
      case 2 -> {
        String type = pick(random, CONTENT_TYPES);
        headers.removeIf(h -> h.getKey().equalsIgnoreCase("Content-Type"));
        headers.add(Map.entry("Content-Type", type));
        what.append("headers: Content-Type '").append(type).append("'");
      }
      case 3 -> {
        String type = contentType + "; charset=" + pick(random, PayloadMutants.CHARSETS);
        headers.removeIf(h -> h.getKey().equalsIgnoreCase("Content-Type"));
        headers.add(Map.entry("Content-Type", type));
        what.append("headers: Content-Type '").append(type).append("'");
      }
      case 4 -> {
        String other = random.nextBoolean() ? value : pick(random, PayloadMutants.VALUES);
        headers.add(random.nextInt(headers.size() + 1), Map.entry(name, other));
        what.append("headers: ").append(name).append(" repeated with '").append(other).append("'");
      }
      case 5 -> {
        String odd = pick(random, new String[] {value.isEmpty() ? "x" : value.substring(1), value + "x",
            value.isEmpty() ? "" : value.substring(0, value.length() / 2), "", " " + value + " ",
            "99999999999999999999", "-1", value + "\u00ff\u00fe", latin("中文") + value, value.toUpperCase(),
            value + "," + value});
        headers.set(i, Map.entry(name, odd));
        what.append("headers: ").append(name).append(" set to '").append(odd).append("'");
      }
      case 6 -> {
        int size = pick(random, new Integer[] {4_000, 7_000, 9_000, 20_000});
        String huge = pick(random, new String[] {"User-Agent", "X-Forwarded-For", "Cookie", name});
        headers.removeIf(h -> h.getKey().equalsIgnoreCase(huge));
        headers.add(Map.entry(huge, "a".repeat(size)));
        what.append("headers: ").append(huge).append(" of ").append(size).append(" bytes");
      }
      case 7 -> {
        int count = pick(random, new Integer[] {50, 200});
        for (int k = 0; k < count; k++) {
          headers.add(Map.entry("X-Fuzz-" + k, "v" + k));
        }
        what.append("headers: ").append(count).append(" more");
      }
      case 8 -> {
        String renamed = pick(random, new String[] {name.toUpperCase(Locale.ROOT), name.toLowerCase(Locale.ROOT),
            name.replace('-', '_')});
        headers.set(i, Map.entry(renamed, value));
        what.append("headers: ").append(name).append(" written ").append(renamed);
      }
      default -> {
        headers.removeIf(h -> h.getKey().equalsIgnoreCase("Host"));
        String host = pick(random, new String[] {null, "", "a".repeat(5_000), "127.0.0.1:0", "[::1", "a b"});
        if (host != null) {
          headers.add(0, Map.entry("Host", host));
        }
        what.append("headers: Host ").append(host == null ? "removed" : "'" + host + "'");
      }
    }
    return r.withHeaders(headers);
  }

  private static RawRequest request(RawRequest r, Random random, StringBuilder what) {
    switch (random.nextInt(4)) {
      case 0 -> {
        if (random.nextBoolean()) {
          String method = pick(random, METHODS);
          what.append("request: method ").append(method);
          return r.withMethod(method);
        }
        if (r.method().equals("GET")) {
          List<Map.Entry<String, String>> headers = new ArrayList<>(r.headers());
          headers.add(Map.entry("Content-Type", "application/x-www-form-urlencoded"));
          what.append("request: the query posted as a form");
          return new RawRequest("POST", r.path(), List.copyOf(headers),
              payload(r).getBytes(StandardCharsets.ISO_8859_1), r.chunked());
        }
        what.append("request: the body sent as a GET query");
        return new RawRequest("GET", r.path() + "?" + onRequestLine(payload(r)), r.headers(), new byte[0], false);
      }
      case 1 -> {
        String path = r.path();
        String odd = pick(random, new String[] {path + "/", path.replaceFirst("/", "//"), path.toUpperCase(),
            path.replace("notify", "notif%79"), path + ";x=1", path.replace("/notify/", "/notify/x/../"),
            path + "%00", path + "%2F"});
        String query = r.query();
        what.append("request: path ").append(odd);
        return r.withTarget(odd + (query == null ? "" : "?" + query));
      }
      case 2 -> {
        String query = pick(random, new String[] {"sign=x", "out_trade_no=F1&total_amount=1", "%zz", "a=%E4%B8",
            "&&&", "x=" + "y".repeat(3_000)});
        what.append("request: query '").append(query).append("' added");
        return r.withTarget(r.target() + (r.query() == null ? "?" : "&") + query);
      }
      default -> {
        what.append("request: body chunked");
        return r.chunkedBody();
      }
    }
  }
}
