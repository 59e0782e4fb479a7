package paynotify.admin;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/**
 * /status: the report as one server-rendered HTML page for a person, on a phone as well: no script,
 * no external asset (the admin port may have no way out), a refresh every 30 seconds. Everything
 * that came from a request or the database (order numbers, details, addresses) goes through
 * {@link #esc}: anyone can send a notification, so any of it may be hostile markup.
 */
public final class StatusPage {
  private static final String CSS = String.join("",
      "body{font:15px/1.4 system-ui,sans-serif;margin:0 auto;max-width:60rem;padding:.5rem .8rem;color:#222}",
      "h1{font-size:1.05rem;margin:.3rem 0;color:#555}h2{font-size:1.05rem;margin:1.2rem 0 .4rem}",
      ".head{padding:.7rem .9rem;border-radius:6px;margin:.4rem 0}.head p{margin:.2rem 0}",
      ".bad{background:#fde8e8;border:1px solid #d33}.ok{background:#e6f6e6;border:1px solid #3a3}",
      ".big{font-size:1.35rem;font-weight:700}.red{color:#c00}.green{color:#070}.dim{color:#666}",
      "table{border-collapse:collapse;width:100%}td,th{text-align:left;padding:.25rem .4rem;",
      "border-bottom:1px solid #ddd;vertical-align:top}th{font-weight:600}.num{text-align:right}",
      ".card{border:1px solid #ddd;border-left:4px solid #d33;border-radius:4px;padding:.4rem .6rem;margin:.4rem 0}",
      ".card p{margin:.15rem 0}.todo{font-weight:600}code{font-size:.9em;word-break:break-all}",
      ".wrap{overflow-x:auto}");

  private StatusPage() {}

  public static String html(JsonObject r) {
    StringBuilder h = new StringBuilder(8192);
    h.append("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">")
        .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")
        .append("<meta http-equiv=\"refresh\" content=\"30\"><title>paynotify status</title><style>")
        .append(CSS).append("</style></head><body>");
    h.append("<h1>paynotify &middot; ").append(esc(r.getString("generated_at"))).append(" (")
        .append(esc(r.getJsonObject("database").getString("time_zone"))).append(")</h1>");
    headline(h, r);
    channels(h, r);
    payments(h, r);
    dailyClose(h, r);
    anomalies(h, r);
    refused(h, r);
    forward(h, r);
    service(h, r);
    return h.append("</body></html>").toString();
  }

  /** At a glance: does anything need a person, and is money coming in. */
  private static void headline(StringBuilder h, JsonObject r) {
    JsonArray attention = r.getJsonArray("attention");
    h.append("<div id=\"headline\" class=\"head ").append(attention.isEmpty() ? "ok" : "bad").append("\">");
    if (attention.isEmpty()) {
      h.append("<p class=\"big green\">All clear</p>");
    } else {
      for (int i = 0; i < attention.size(); i++) {
        h.append("<p class=\"").append(i == 0 ? "big " : "").append("red\">").append(esc(attention.getString(i)))
            .append("</p>");
      }
    }
    JsonObject today = r.getJsonObject("payments_today");
    long count = today.getLong("count");
    h.append("<p>").append(count == 0 ? "No payment yet today"
        : count + (count == 1 ? " payment" : " payments") + " today, " + esc(today.getString("amount")))
        .append("</p>");
    JsonObject latest = null;
    String latestChannel = null;
    for (JsonObject c : objects(r.getJsonArray("channels"))) {
      JsonObject last = c.getJsonObject("last_notification");
      if (last != null && (latest == null || last.getLong("age_seconds") < latest.getLong("age_seconds"))) {
        latest = last;
        latestChannel = c.getString("channel");
      }
    }
    h.append("<p class=\"dim\">").append(latest == null ? "No notification received yet"
        : "Last notification " + age(latest.getLong("age_seconds")) + " ago (" + esc(latestChannel) + ", "
            + esc(latest.getString("outcome")) + ")").append("</p></div>");
  }

  private static void channels(StringBuilder h, JsonObject r) {
    h.append("<h2>Channels</h2><div class=\"wrap\"><table id=\"channels\"><tr><th>Channel</th>")
        .append("<th>Last notification</th><th>Outcome</th></tr>");
    for (JsonObject c : objects(r.getJsonArray("channels"))) {
      JsonObject last = c.getJsonObject("last_notification");
      h.append("<tr><td>").append(esc(c.getString("channel"))).append(keysSeen(c.getJsonObject("keys_seen")))
          .append("</td>");
      if (last == null) {
        h.append("<td class=\"dim\">never</td><td></td></tr>");
      } else {
        String outcome = last.getString("outcome");
        boolean bad = outcome.equals("rejected") || outcome.equals("error") || outcome.equals("conflict")
            || outcome.equals("anomaly");
        h.append("<td>").append(esc(last.getString("at"))).append(" <span class=\"dim\">(")
            .append(age(last.getLong("age_seconds"))).append(" ago)</span></td><td")
            .append(bad ? " class=\"red\"" : "").append(">").append(esc(outcome)).append("</td></tr>");
      }
    }
    h.append("</table></div>");
  }

  /**
   * Under a channel's name, which kind of key its notifications came with since the start: while WeChat moves a
   * merchant from platform certificates to its public key, both counts grow; afterwards only the public key's.
   */
  private static String keysSeen(JsonObject seen) {
    if (seen == null) {
      return "";
    }
    JsonObject last = seen.getJsonObject("last");
    return "<br><span class=\"dim keys-seen\">" + (last == null ? "no notification verified since the start"
        : "last signed with " + (last.getString("kind").equals("public_key") ? "the WeChat Pay public key "
            : "the platform certificate ") + esc(last.getString("key")) + "; since the start: "
            + seen.getLong("public_key") + " public key, " + seen.getLong("platform_certificate") + " certificate")
        + "</span>";
  }

  private static void payments(StringBuilder h, JsonObject r) {
    JsonObject today = r.getJsonObject("payments_today");
    h.append("<h2>Today's payments <span class=\"dim\">(").append(esc(r.getString("today")))
        .append(")</span></h2><table id=\"payments\"><tr><th>Channel</th><th class=\"num\">Payments</th>")
        .append("<th class=\"num\">Amount</th></tr>");
    for (JsonObject c : objects(today.getJsonArray("by_channel"))) {
      h.append("<tr><td>").append(esc(c.getString("channel"))).append("</td><td class=\"num\">")
          .append(c.getLong("count")).append("</td><td class=\"num\">").append(esc(c.getString("amount")))
          .append(esc(StatusReport.belowPrice(c))).append("</td></tr>");
    }
    h.append("<tr><th>Total</th><th class=\"num\" id=\"payments-count\">").append(today.getLong("count"))
        .append("</th><th class=\"num\" id=\"payments-amount\">").append(esc(today.getString("amount")))
        .append("</th></tr></table>");
  }

  /** reconcile.daily on: each channel's last close; red when it failed or yesterday's is overdue. */
  private static void dailyClose(StringBuilder h, JsonObject r) {
    JsonObject d = r.getJsonObject("daily_close");
    if (!d.getBoolean("enabled")) {
      return;
    }
    h.append("<h2>Daily close <span class=\"dim\">(at ").append(esc(d.getString("at")))
        .append(" Beijing time, yesterday's bill)</span></h2><div class=\"wrap\"><table id=\"daily-close\"><tr>")
        .append("<th>Channel</th><th>Day</th><th>State</th><th>Tried</th><th>Result</th></tr>");
    for (JsonObject c : objects(d.getJsonArray("channels"))) {
      JsonObject last = c.getJsonObject("last");
      boolean overdue = c.getBoolean("overdue");
      h.append("<tr><td>").append(esc(c.getString("channel"))).append("</td>");
      if (last == null || overdue && !last.getString("bill_date").equals(c.getString("expected_day"))) {
        // Yesterday's close has no row: not run yet, or (overdue) not at all.
        h.append("<td>").append(esc(c.getString("expected_day"))).append("</td><td class=\"")
            .append(overdue ? "red\">not run" : "dim\">not yet").append("</td><td></td><td>")
            .append(last == null ? "" : "<span class=\"dim\">last close: " + esc(last.getString("bill_date"))
                + ", " + esc(last.getString("state")) + "</span>").append("</td></tr>");
        continue;
      }
      boolean bad = overdue || last.getString("state").equals("failed");
      h.append("<td>").append(esc(last.getString("bill_date"))).append("</td><td")
          .append(bad ? " class=\"red\"" : "").append(">").append(esc(last.getString("state")))
          .append("</td><td>").append(esc(last.getString("tried_at"))).append(" <span class=\"dim\">(")
          .append(last.getInteger("attempts")).append(last.getInteger("attempts") == 1 ? " try" : " tries")
          .append(")</span></td><td>").append(esc(last.getString("detail"))).append("</td></tr>");
    }
    h.append("</table></div>");
  }

  private static void anomalies(StringBuilder h, JsonObject r) {
    JsonObject a = r.getJsonObject("anomalies");
    long open = a.getLong("open");
    JsonArray shown = a.getJsonArray("shown");
    h.append("<h2>Open anomalies <span id=\"anomalies-open\"").append(open > 0 ? " class=\"red\"" : "").append(">")
        .append(open).append("</span></h2><div id=\"anomalies\">");
    if (open == 0) {
      h.append("<p class=\"dim\">None: nothing needs you.</p>");
    }
    for (JsonObject x : objects(shown)) {
      h.append("<div class=\"card\"><p><b>#").append(x.getLong("id")).append(' ').append(esc(x.getString("kind")))
          .append("</b> <span class=\"dim\">").append(esc(x.getString("channel"))).append(", ")
          .append(esc(x.getString("created_at"))).append("</span></p><p>order <code>")
          .append(esc(x.getString("order_no"))).append("</code> trade <code>").append(esc(x.getString("trade_no")))
          .append("</code>").append(x.getString("amount") == null ? "" : " " + esc(x.getString("amount")))
          .append("</p><p>").append(esc(x.getString("detail"))).append("</p><p class=\"todo\">What to do: ")
          .append(esc(x.getString("action"))).append("</p></div>");
    }
    if (open > shown.size()) {
      h.append("<p class=\"dim\">The newest ").append(shown.size()).append(" of ").append(open)
          .append(": <code>paynotify anomalies list --open</code> lists them all.</p>");
    }
    if (open > 0) {
      h.append("<p class=\"dim\">Once done: <code>paynotify anomalies resolve ID --note \"what was done\"</code></p>");
    }
    h.append("</div>");
  }

  private static void refused(StringBuilder h, JsonObject r) {
    JsonArray refused = r.getJsonArray("refused");
    h.append("<h2>Last rejected and failed notifications</h2>");
    Long unrecorded = r.getLong("refused_unrecorded");
    if (unrecorded != null && unrecorded > 0) {
      h.append("<p class=\"dim\" id=\"refused-unrecorded\">").append(unrecorded)
          .append(" more refused since the start, counted but not recorded (retention.rejected_rows_per_second)</p>");
    }
    if (refused.isEmpty()) {
      h.append("<p class=\"dim\" id=\"refused\">None.</p>");
      return;
    }
    h.append("<div class=\"wrap\"><table id=\"refused\"><tr><th>Time</th><th>Channel</th><th>From</th>")
        .append("<th>Reason</th></tr>");
    for (JsonObject x : objects(refused)) {
      h.append("<tr><td>").append(esc(x.getString("at"))).append("</td><td>").append(esc(x.getString("channel")))
          .append("</td><td>").append(esc(x.getString("remote_addr"))).append("</td><td><span class=\"red\">")
          .append(esc(x.getString("outcome"))).append("</span> ").append(esc(x.getString("detail")))
          .append("</td></tr>");
    }
    h.append("</table></div>");
  }

  private static void forward(StringBuilder h, JsonObject r) {
    JsonObject f = r.getJsonObject("forward");
    h.append("<h2>Forward queue</h2><p id=\"forward\">");
    if ("off".equals(f.getString("state"))) {
      h.append("<span class=\"dim\">off (forward.url not set)</span></p>");
      return;
    }
    Long oldest = f.getLong("oldest_pending_seconds");
    h.append(f.getLong("pending")).append(" pending").append(oldest == null ? "" : " (oldest " + age(oldest) + ")")
        .append(", <span").append(f.getLong("failed") > 0 ? " class=\"red\"" : "").append(">")
        .append(f.getLong("failed")).append(" failed</span></p>");
    JsonArray endpoints = f.getJsonArray("endpoints");
    h.append("<table id=\"forward-endpoints\"><tr><th>Endpoint</th><th>Pending</th><th>Failed</th><th>State</th></tr>");
    for (int i = 0; i < endpoints.size(); i++) {
      JsonObject e = endpoints.getJsonObject(i);
      String state = e.getBoolean("disabled") ? "<span class=\"red\">disabled: " + esc(e.getString("disabled_reason"))
          + "</span>" : e.getBoolean("configured") ? "<span class=\"green\">sending</span>"
          : "<span class=\"red\">not configured</span>";
      h.append("<tr><td>").append(esc(e.getString("name"))).append("</td><td>").append(e.getLong("pending"))
          .append("</td><td").append(e.getLong("failed") > 0 ? " class=\"red\"" : "").append(">")
          .append(e.getLong("failed")).append("</td><td>").append(state).append("</td></tr>");
    }
    h.append("</table>");
  }

  private static void service(StringBuilder h, JsonObject r) {
    JsonObject db = r.getJsonObject("database");
    JsonObject p = r.getJsonObject("paynotify");
    Long uptime = p.getLong("uptime_seconds");
    h.append("<h2>Service</h2><table id=\"service\"><tr><td>Database</td><td class=\"green\">reachable</td></tr>")
        .append("<tr><td>Database version</td><td>").append(esc(db.getString("version"))).append("</td></tr>")
        .append("<tr><td>paynotify</td><td>").append(esc(p.getString("version"))).append("</td></tr>")
        .append("<tr><td>Up</td><td>").append(uptime == null ? "-" : age(uptime) + " (since "
            + esc(p.getString("started_at")) + ")").append("</td></tr></table>");
  }

  /** "42 s", "7 min", "3 h 5 min", "2 d 4 h": how long ago, for a person. */
  static String age(long seconds) {
    if (seconds < 60) {
      return Math.max(seconds, 0) + " s";
    }
    long min = seconds / 60;
    if (min < 60) {
      return min + " min";
    }
    long hours = min / 60;
    return hours < 24 ? hours + " h " + min % 60 + " min" : hours / 24 + " d " + hours % 24 + " h";
  }

  /** Text for HTML content and quoted attributes: the five characters that can end either. */
  static String esc(String s) {
    if (s == null) {
      return "";
    }
    StringBuilder out = new StringBuilder(s.length() + 16);
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '&' -> out.append("&amp;");
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '"' -> out.append("&quot;");
        case '\'' -> out.append("&#39;");
        default -> out.append(c);
      }
    }
    return out.toString();
  }

  private static List<JsonObject> objects(JsonArray array) {
    List<JsonObject> out = new ArrayList<>(array.size());
    for (int i = 0; i < array.size(); i++) {
      out.add(array.getJsonObject(i));
    }
    return out;
  }
}
