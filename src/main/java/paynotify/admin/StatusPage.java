package paynotify.admin;

import io.vertx.core.json.JsonObject;

/** /status: the report as one server-rendered HTML page, everything that came from a request escaped. */
public final class StatusPage {
  private StatusPage() {}

  public static String html(JsonObject status) {
    return "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>paynotify</title></head><body><pre>"
        + status.encodePrettily().replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        + "</pre></body></html>";
  }
}
