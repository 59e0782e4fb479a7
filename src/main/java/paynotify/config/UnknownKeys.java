package paynotify.config;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keys of the site's configuration file that paynotify does not read: a typo there
 * ({@code alipay.publik_key_file}) would otherwise silently mean the default. Only the file's keys:
 * the environment holds many variables, PAYNOTIFY_* ones of other tools among them.
 */
final class UnknownKeys {
  private static final Logger LOG = LoggerFactory.getLogger(UnknownKeys.class);

  private UnknownKeys() {}

  /** One WARN line naming every unknown key of {@code file}, none when all are known. */
  static void warn(JsonObject file, String source, Set<String> keysRead) {
    Set<String> known = new TreeSet<>(ConfigTemplate.shipped());
    known.addAll(keysRead);
    List<String> unknown = in(file, known);
    if (!unknown.isEmpty()) {
      LOG.warn("{}: paynotify reads no key {}: ignored. A typo? conf/application.yaml as shipped lists every key",
          source, String.join(", ", unknown));
    }
  }

  /** The keys of {@code file} that are neither a known key nor a section holding one. */
  static List<String> in(JsonObject file, Set<String> known) {
    Set<String> keys = new TreeSet<>();
    file.forEach(e -> collect(e.getValue(), e.getKey(), keys));
    return keys.stream().filter(key -> known.stream().noneMatch(k -> k.equals(key) || k.startsWith(key + ".")
        || k.startsWith(key + "[]"))).toList();
  }

  private static void collect(Object node, String path, Set<String> keys) {
    if (node instanceof JsonObject section && !section.isEmpty()) {
      section.forEach(e -> collect(e.getValue(), path + "." + e.getKey(), keys));
    } else if (node instanceof JsonArray list && list.stream().anyMatch(JsonObject.class::isInstance)) {
      list.forEach(entry -> collect(entry, path + "[]", keys));
    } else {
      keys.add(path);
    }
  }
}
