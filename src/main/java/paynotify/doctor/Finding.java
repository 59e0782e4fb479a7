package paynotify.doctor;

import io.vertx.core.json.JsonObject;

/**
 * One thing wrong with the configuration.
 *
 * @param where  the configuration key (or file, or machine) where it is wrong
 * @param what   what is wrong
 * @param change what to change, and where the right value is found
 */
public record Finding(String where, String what, String change) {
  JsonObject toJson() {
    return new JsonObject().put("where", where).put("what", what).put("change", change);
  }

  String text() {
    return where + ": " + what + "\n  change: " + change + "\n";
  }
}
