package paynotify.config;

import static java.util.stream.Collectors.toSet;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The keys of conf/application.yaml as shipped (a copy is in the jar): its {@code key:} lines and its
 * commented-out {@code # key: value} ones, the keys a site turns on by removing the {@code #}. A test
 * holds them equal to the keys the code reads, so they are every key paynotify knows, including those
 * read only when a feature is on.
 */
final class ConfigTemplate {
  static final String RESOURCE = "/paynotify/application.yaml";
  /**
   * A key line, active or commented out: indent, then {@code # } for a commented one (the spaces after
   * the {@code #} are its indent beyond the {@code #}'s own column), an optional list dash, a lower-case key.
   */
  private static final Pattern KEY_LINE = Pattern.compile("^( *)(?:#( +))?(- )?([a-z0-9_]+):(?: (.*)|$)");
  /** A value ends where its comment starts; quotes around it are YAML's, not the value's. */
  private static final Pattern VALUE = Pattern.compile("^\"?(.*?)\"?(?:\\s+#.*)?$");

  private record Parent(int indent, String path) {}

  private ConfigTemplate() {}

  /** The keys of the copy in the jar. */
  static Set<String> shipped() {
    try (InputStream in = ConfigTemplate.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(RESOURCE + " is not on the class path (the build copies conf/application.yaml)");
      }
      return keys(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Full dotted keys, an entry of a list as {@code key[]} ({@code wechat_v3.platform_keys[].id}). */
  static Set<String> keys(String yaml) {
    return values(yaml).keySet();
  }

  /** Each key with the value the file gives it (for a commented-out key, the value after it). */
  static Map<String, String> values(String yaml) {
    Map<String, String> values = new TreeMap<>();
    Deque<Parent> parents = new ArrayDeque<>(); // innermost first
    for (String line : yaml.split("\n")) {
      Matcher m = KEY_LINE.matcher(line);
      if (!m.find()) {
        continue;
      }
      int indent = m.group(1).length() + (m.group(2) == null ? 0 : m.group(2).length() - 1);
      // a key is indented at most 2 past the one before: deeper, "# word: ..." is a comment's prose
      if (m.group(2) != null && indent > (parents.isEmpty() ? 0 : parents.peek().indent() + 2)) {
        continue;
      }
      while (!parents.isEmpty() && parents.peek().indent() >= indent) {
        parents.pop();
      }
      String parent = parents.isEmpty() ? "" : parents.peek().path();
      if (m.group(3) != null) { // "- key:" opens an entry of the parent list; its keys are indented past the dash
        parent = parent + "[]";
        parents.push(new Parent(indent, parent));
        indent += 2;
      }
      String key = parent.isEmpty() ? m.group(4) : parent + "." + m.group(4);
      Matcher value = VALUE.matcher(m.group(5) == null ? "" : m.group(5).trim());
      values.put(key, value.matches() ? value.group(1) : "");
      parents.push(new Parent(indent, key));
    }
    // sections are not keys (a list of sections is: it is read as one)
    Set<String> sections = values.keySet().stream()
        .filter(key -> values.keySet().stream().anyMatch(other -> other.startsWith(key + "."))).collect(toSet());
    values.keySet().removeAll(sections);
    return values;
  }
}
