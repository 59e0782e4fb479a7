package paynotify.net;

import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/** The pieces of an outbound call's URL: a value encoded, a path below a configured base. */
public final class Urls {
  private Urls() {}

  /** A form's or a query's value, as URLEncoder writes it in UTF-8 (a space as +). */
  public static String encode(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8);
  }

  /** A path segment or query value: {@link #encode}, with a space as %20 as a path needs. */
  public static String encodeInPath(String value) {
    return encode(value).replace("+", "%20");
  }

  /** {@code base} without its trailing slashes, what a path starting with "/" is appended to. */
  public static String root(URI base) {
    return base.toString().replaceAll("/+$", "");
  }

  /** {@code path} (starting with "/") below {@code base}, a trailing slash of the base or not. */
  public static URI at(URI base, String path) {
    return URI.create(root(base) + path);
  }
}
