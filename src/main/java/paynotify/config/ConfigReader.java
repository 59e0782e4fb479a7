package paynotify.config;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import paynotify.crypto.PublicKeys;

/**
 * Typed, validated reads from the loaded YAML (as JSON). Every error names the file and the key,
 * so the operator knows where to look. Environment variables {@code PAYNOTIFY_SECTION_KEY}
 * override the file (e.g. {@code PAYNOTIFY_DATABASE_PASSWORD} for {@code database.password}).
 * It remembers every key it is asked for ({@link #keysRead()}): the keys paynotify knows are the
 * ones its code reads, not a list kept beside it.
 */
final class ConfigReader {
  static final String ENV_PREFIX = "PAYNOTIFY_";

  private final JsonObject root;
  private final String source;
  private final String prefix;
  private final Set<String> keysRead; // shared with the readers of list entries
  private final Map<String, String> defaults;

  ConfigReader(JsonObject root, String source) {
    this(root, source, "", new TreeSet<>(), new HashMap<>());
  }

  private ConfigReader(JsonObject root, String source, String prefix, Set<String> keysRead,
      Map<String, String> defaults) {
    this.root = root;
    this.source = source;
    this.prefix = prefix;
    this.keysRead = keysRead;
    this.defaults = defaults;
  }

  /**
   * Every full dotted key asked for so far, present or not, an entry of a list as {@code key[]}
   * ({@code wechat_v3.platform_keys[].key_file}).
   */
  Set<String> keysRead() {
    return Set.copyOf(keysRead);
  }

  /** The default of each key read with one (as text), by its full key: what the shipped file must say. */
  Map<String, String> defaults() {
    return Map.copyOf(defaults);
  }

  private void fallback(String key, Object value) {
    if (value != null) {
      defaults.put(full(key), value.toString());
    }
  }

  private String full(String key) {
    return (prefix + key).replaceAll("\\[\\d+]", "[]");
  }

  /** Overlays {@code PAYNOTIFY_*} variables onto {@code root}, matching nested sections by prefix. */
  static JsonObject withEnv(JsonObject root, Map<String, String> env, Iterable<String> sections) {
    JsonObject merged = root.copy();
    for (String section : sections) { // parents before their nested sections (orders, orders.columns)
      JsonObject parent = merged;
      String[] path = section.split("\\.");
      for (int i = 0; i < path.length - 1; i++) {
        parent = parent.getJsonObject(path[i]);
      }
      String name = path[path.length - 1];
      if (!(parent.getValue(name) instanceof JsonObject)) {
        parent.put(name, new JsonObject());
      }
    }
    env.forEach((name, value) -> {
      if (name.startsWith(ENV_PREFIX)) {
        put(merged, name.substring(ENV_PREFIX.length()).toLowerCase(Locale.ROOT), value);
      }
    });
    return merged;
  }

  private static void put(JsonObject json, String path, String value) {
    for (String field : json.fieldNames()) {
      if (json.getValue(field) instanceof JsonObject child && path.startsWith(field + "_")) {
        put(child, path.substring(field.length() + 1), value);
        return;
      }
    }
    json.put(path, value);
  }

  /** Where the configuration was read from (its file's path, for the service's configuration). */
  String source() {
    return source;
  }

  ConfigException error(String key, String problem) {
    return new ConfigException(source + ": " + prefix + key + ": " + problem);
  }

  /** The entries of a list of sections, each read with its place in messages ({@code key[0].name}). */
  List<ConfigReader> sections(String key) {
    Object value = raw(key);
    if (value == null) {
      return List.of();
    }
    if (!(value instanceof JsonArray list)) {
      throw error(key, "expected a list");
    }
    List<ConfigReader> entries = new ArrayList<>();
    for (int i = 0; i < list.size(); i++) {
      if (!(list.getValue(i) instanceof JsonObject entry)) {
        throw error(key + "[" + i + "]", "expected a section (name: value lines)");
      }
      entries.add(new ConfigReader(entry, source, prefix + key + "[" + i + "].", keysRead, defaults));
    }
    return entries;
  }

  private Object raw(String key) {
    keysRead.add(full(key));
    Object node = root;
    for (String part : key.split("\\.")) {
      if (!(node instanceof JsonObject json)) {
        return null;
      }
      node = json.getValue(part);
    }
    return node;
  }

  /**
   * A list of values: a YAML list, or (from the environment) one string of values separated by
   * commas or spaces; null when absent.
   */
  List<String> list(String key) {
    Object value = raw(key);
    if (value == null) {
      return null;
    }
    if (value instanceof JsonArray array) {
      List<String> items = new ArrayList<>();
      for (Object item : array) {
        if (item == null || item instanceof JsonObject || item instanceof JsonArray) {
          throw error(key, "expected a list of values");
        }
        items.add(item.toString().trim());
      }
      return items;
    }
    String text = value.toString().trim();
    return text.isEmpty() ? List.of() : List.of(text.split("[,\\s]+"));
  }

  /** Whether the key is given at all, even empty (an empty environment variable is given). */
  boolean given(String key) {
    return raw(key) != null;
  }

  /** The trimmed value, or null when absent or empty. */
  String string(String key) {
    Object value = raw(key);
    if (value == null) {
      return null;
    }
    if (value instanceof JsonObject) {
      throw error(key, "expected a value, found a section");
    }
    String text = value.toString().trim();
    return text.isEmpty() ? null : text;
  }

  /**
   * An optional name: {@code fallback} when the key is absent, null when it is set to "" (none).
   */
  String optional(String key, String fallback) {
    fallback(key, fallback);
    return raw(key) == null ? fallback : string(key);
  }

  String string(String key, String fallback) {
    fallback(key, fallback);
    String value = string(key);
    return value == null ? fallback : value;
  }

  long number(String key, long fallback, long min, long max) {
    fallback(key, fallback);
    String value = string(key);
    if (value == null) {
      return fallback;
    }
    long n;
    try {
      n = Long.parseLong(value);
    } catch (NumberFormatException e) {
      throw error(key, "'" + value + "' is not a whole number");
    }
    if (n < min || n > max) {
      throw error(key, n + " is out of range " + min + ".." + max);
    }
    return n;
  }

  int integer(String key, int fallback, int min, int max) {
    return (int) number(key, fallback, min, max);
  }

  boolean bool(String key, boolean fallback) {
    fallback(key, fallback);
    String value = string(key);
    if (value == null) {
      return fallback;
    }
    Boolean said = YesNo.of(value);
    if (said == null) {
      throw error(key, "'" + value + "' is not true or false");
    }
    return said;
  }

  /**
   * A secret given inline ({@code key}, usually from the environment) or as a file ({@code key_file}, the service
   * user's alone: {@link SecretFile}); null when neither is set. The content itself is never put in a message.
   */
  String inlineOrFile(String key) {
    return inlineOrFile(key, true);
  }

  /**
   * {@link #inlineOrFile}, for a key that verifies or signs: an empty one would let anyone sign, so an empty
   * file stops the start.
   */
  String secret(String key) {
    return nonEmpty(key, inlineOrFile(key, true));
  }

  /**
   * A public key or certificate (PEM) given inline or as a file ({@code key_file}): no secret, so its file may be
   * anyone's to read; empty, it stops the start.
   */
  String publicKey(String key) {
    return nonEmpty(key, inlineOrFile(key, false));
  }

  /**
   * The certificates of the PEM file {@code key} names (one or more, in order); null when the key is not set. No
   * secret: anyone may read a certificate file.
   */
  List<X509Certificate> certificates(String key) {
    String file = string(key);
    if (file == null) {
      return null;
    }
    try {
      return PublicKeys.parseCertificates(content(file, key, false));
    } catch (IllegalArgumentException e) {
      throw error(key, Path.of(file).toAbsolutePath() + ": " + e.getMessage() + ": name the certificate's file (PEM,"
          + " -----BEGIN CERTIFICATE-----)");
    }
  }

  private String inlineOrFile(String key, boolean secret) {
    String inline = string(key);
    String file = string(key + "_file");
    if (inline != null && file != null) {
      throw error(key, "set either " + key + " or " + key + "_file, not both");
    }
    return file == null ? inline : content(file, key + "_file", secret);
  }

  private String nonEmpty(String key, String value) {
    if (value != null && value.isEmpty()) {
      throw error(key + "_file", "file " + string(key + "_file") + " is empty");
    }
    return value;
  }

  /** The trimmed content of the secret's file that {@code key} names; null when the key is absent or empty. */
  String fileContent(String key) {
    String file = string(key);
    return file == null ? null : fileContent(file, key);
  }

  /** The trimmed content of {@code file}, one of the secrets' files {@code key} names. */
  String fileContent(String file, String key) {
    return content(file, key, true);
  }

  private String content(String file, String key, boolean secret) {
    try {
      return (secret ? SecretFile.read(Path.of(file)) : Files.readString(Path.of(file), StandardCharsets.UTF_8))
          .trim();
    } catch (NoSuchFileException e) {
      throw error(key, "file " + Path.of(file).toAbsolutePath() + " does not exist");
    } catch (IOException e) {
      throw error(key, "cannot read " + Path.of(file).toAbsolutePath() + ": " + e.getMessage());
    } catch (IllegalArgumentException e) {
      throw error(key, e.getMessage());
    }
  }
}
