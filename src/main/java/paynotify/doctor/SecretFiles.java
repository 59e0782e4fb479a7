package paynotify.doctor;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import paynotify.config.SecretFile;

/**
 * Every secret's file the settings name (each {@code *_file} and {@code *_files} key but the public keys' and
 * certificates'), read through config/SecretFile's rules (the service user's, mode 600, no link), as the start
 * reads them: what it would refuse is a finding, with the chmod/chown it says.
 */
final class SecretFiles {
  /**
   * The files that hold no secret: public keys and certificates (read without SecretFile by config/ChannelsConfig,
   * ConfiguredCertificates and DatabaseSecurity).
   */
  private static final Set<String> PUBLIC = Set.of("alipay.public_key_file", "wechat_v3.platform_keys[].key_file",
      "wechat_v3.merchant_certificate_file", "alipay.app_cert_file", "alipay.alipay_cert_file",
      "alipay.alipay_root_cert_file", "database.tls_ca_file", "database.server_public_key_file");

  /** By key ({@code forward.secret_files[1]}): the file's trimmed text, or null when it was refused. */
  private final Map<String, String> contents = new LinkedHashMap<>();
  private final JsonObject settings;

  private SecretFiles(JsonObject settings) {
    this.settings = settings;
  }

  /** Reads every secret's file of {@code settings}; each refused one is a finding of {@code checkup}. */
  static SecretFiles read(JsonObject settings, Checkup checkup) {
    SecretFiles files = new SecretFiles(settings);
    files.walk(settings, "", checkup);
    long sound = files.contents.values().stream().filter(c -> c != null).count();
    checkup.checked("secret files, the service user's and mode 600: " + sound + " of " + files.contents.size());
    return files;
  }

  /** The text of the secret's file under {@code key}; null when none is set or it was refused (a finding). */
  String content(String key) {
    return contents.get(key);
  }

  /**
   * The secret {@code name} ({@code wechat_v2.api_key}) given inline (a PAYNOTIFY_* variable) or in its file
   * ({@code name_file}); null when neither is set, or its file was refused (a finding says why).
   */
  Given secret(String name) {
    int dot = name.indexOf('.');
    String inline = string(section(settings, name.substring(0, dot)), name.substring(dot + 1));
    if (inline != null) {
      return new Given(name, inline);
    }
    String text = contents.get(name + "_file");
    return text == null ? null : new Given(name + "_file", text);
  }

  private void walk(JsonObject node, String prefix, Checkup checkup) {
    for (String field : node.fieldNames()) {
      Object value = node.getValue(field);
      String key = prefix + field;
      if (value instanceof JsonObject child) {
        walk(child, key + ".", checkup);
      } else if (value instanceof JsonArray list) {
        for (int i = 0; i < list.size(); i++) {
          if (list.getValue(i) instanceof JsonObject entry) {
            walk(entry, key + "[" + i + "].", checkup);
          } else if (field.endsWith("_files") && list.getValue(i) != null) {
            read(key + "[" + i + "]", list.getValue(i).toString(), checkup);
          }
        }
      } else if (field.endsWith("_file") && value != null && !value.toString().isBlank()
          && !PUBLIC.contains(key.replaceAll("\\[\\d+]", "[]"))) {
        read(key, value.toString().trim(), checkup);
      }
    }
  }

  private void read(String key, String file, Checkup checkup) {
    try {
      contents.put(key, SecretFile.read(Path.of(file)).trim());
    } catch (IllegalArgumentException e) {
      contents.put(key, null);
      String problem = e.getMessage();
      int fix = firstOf(problem, ": chmod ", ": run it as ");
      checkup.found(key, fix < 0 ? problem : problem.substring(0, fix),
          fix < 0 ? "name the file that holds it, readable by the service's user only (mode 600)"
              : problem.substring(fix + 2));
    }
  }

  private static int firstOf(String text, String... marks) {
    int first = -1;
    for (String mark : marks) {
      int at = text.indexOf(mark);
      if (at >= 0 && (first < 0 || at < first)) {
        first = at;
      }
    }
    return first;
  }

  /** The section {@code name} of {@code settings}; an empty one when there is none. */
  static JsonObject section(JsonObject settings, String name) {
    return settings.getValue(name) instanceof JsonObject section ? section : new JsonObject();
  }

  /** The trimmed value of {@code key}; null when it is absent, blank, or a section or a list. */
  static String string(JsonObject node, String key) {
    Object value = node.getValue(key);
    if (value == null || value instanceof JsonObject || value instanceof JsonArray) {
      return null;
    }
    String text = value.toString().trim();
    return text.isEmpty() ? null : text;
  }
}
