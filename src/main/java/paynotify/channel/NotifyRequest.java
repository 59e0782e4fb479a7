package paynotify.channel;

import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;

/** What arrived over HTTP, untouched: verification works on these exact bytes. */
public record NotifyRequest(String method, MultiMap headers, String rawQuery, Buffer body) {}
