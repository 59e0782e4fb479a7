package paynotify.testsupport;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.IntFunction;

/** Bodies anyone can send before any signature is checked, built to cost the parser the most. */
public final class HostileBodies {
  private HostileBodies() {}

  /** Each shape, by name, at {@code size} bytes. */
  public static Map<String, byte[]> shapes(int size) {
    Map<String, byte[]> shapes = new LinkedHashMap<>();
    shapes.put("names without values", namesWithoutValues(size));
    shapes.put("blank pairs", repeated(size, i -> "b" + i + "=&"));
    shapes.put("short pairs", repeated(size, i -> "a" + i + "=1&"));
    shapes.put("one huge value", ("memo=" + "x".repeat(size - 5)).getBytes(StandardCharsets.US_ASCII));
    shapes.put("deep percent-escapes", ("memo=" + "%E4%B8%AD".repeat((size - 5) / 9)).getBytes(StandardCharsets.US_ASCII));
    return shapes;
  }

  /** {@code n0&n1&n2&...} (distinct names, no '='), padded with 'z' to exactly {@code size} bytes. */
  public static byte[] namesWithoutValues(int size) {
    return repeated(size, i -> "n" + i + "&");
  }

  /** {@code pair(0) pair(1) ...} cut after the last whole pair, padded with 'z' to exactly {@code size} bytes. */
  private static byte[] repeated(int size, IntFunction<String> pair) {
    StringBuilder pairs = new StringBuilder(size + 16);
    for (int i = 0; pairs.length() < size; i++) {
      pairs.append(pair.apply(i));
    }
    pairs.setLength(pairs.lastIndexOf("&", size - 1) + 1);
    return (pairs + "z".repeat(size - pairs.length())).getBytes(StandardCharsets.US_ASCII);
  }
}
