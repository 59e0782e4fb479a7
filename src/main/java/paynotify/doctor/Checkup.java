package paynotify.doctor;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import paynotify.config.ConfigException;

/** What the doctor found, and what it looked at and did not: the report, as text or JSON. */
public final class Checkup {
  private final String source;
  private final List<Finding> findings = new ArrayList<>();
  private final List<String> checked = new ArrayList<>();
  private final List<String> skipped = new ArrayList<>();

  /** @param source the configuration file looked over */
  public Checkup(String source) {
    this.source = source;
  }

  public void found(String where, String what, String change) {
    findings.add(new Finding(where, what, change));
  }

  /** Something looked at and found sound. */
  public void checked(String what) {
    checked.add(what);
  }

  /** Something not looked at, and why. */
  public void skipped(String what) {
    skipped.add(what);
  }

  public List<Finding> findings() {
    return List.copyOf(findings);
  }

  /**
   * The line the start (or a tool) stops with, {@code file: key: problem}, as a finding; none when a finding
   * already names that key (the doctor said it first, with what to change).
   */
  public void refused(ConfigException e) {
    String line = e.getMessage();
    String rest = line.startsWith(source + ": ") ? line.substring(source.length() + 2) : line;
    int colon = rest.indexOf(": ");
    String key = colon > 0 && rest.substring(0, colon).matches("[a-z0-9_.\\[\\]-]+") ? rest.substring(0, colon) : null;
    if (key != null && findings.stream().anyMatch(f -> f.where().equals(key))) {
      return;
    }
    found(key == null ? source : key, key == null ? rest : rest.substring(colon + 2),
        "as the line says: the service stops at start with it (exit 2) until it is fixed");
  }

  public String text() {
    StringBuilder t = new StringBuilder("paynotify doctor: ").append(source).append("\n\n");
    findings.forEach(f -> t.append(f.text()));
    if (!findings.isEmpty()) {
      t.append('\n');
    }
    checked.forEach(c -> t.append("checked: ").append(c).append('\n'));
    skipped.forEach(s -> t.append("not checked: ").append(s).append('\n'));
    t.append(findings.isEmpty() ? "nothing wrong found"
        : findings.size() + (findings.size() == 1 ? " finding" : " findings")
            + ": change what each says, then run paynotify doctor again");
    return t.toString();
  }

  public JsonObject toJson() {
    return new JsonObject().put("config", source)
        .put("findings", new JsonArray(findings.stream().map(Finding::toJson).toList()))
        .put("checked", new JsonArray(checked)).put("not_checked", new JsonArray(skipped));
  }
}
