package paynotify.testsupport;

import java.nio.charset.StandardCharsets;

/** Bodies anyone can send before any signature is checked, built to cost the parser the most. */
public final class HostileBodies {
  private HostileBodies() {}

  /** {@code n0&n1&n2&...} (distinct names, no '='), padded with 'z' to exactly {@code size} bytes. */
  public static byte[] namesWithoutValues(int size) {
    StringBuilder names = new StringBuilder(size + 16);
    for (int i = 0; names.length() < size; i++) {
      names.append('n').append(i).append('&');
    }
    names.setLength(names.lastIndexOf("&", size - 1) + 1);
    return (names + "z".repeat(size - names.length())).getBytes(StandardCharsets.US_ASCII);
  }
}
