package paynotify.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The code blocks of docs/forwarding.md, read each time: what a site owner copies is what the tests run. */
final class ForwardingPage {
  private static final Path PAGE = Path.of("docs/forwarding.md");

  private ForwardingPage() {}

  /** The page's ```{@code language} block that contains {@code containing}. */
  static String block(String language, String containing) {
    try {
      Matcher m = Pattern.compile("```" + language + "\n(.*?)```", Pattern.DOTALL).matcher(Files.readString(PAGE));
      while (m.find()) {
        if (m.group(1).contains(containing)) {
          return m.group(1);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    throw new IllegalStateException(PAGE + " has no ```" + language + " block with " + containing);
  }
}
