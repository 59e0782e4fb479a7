package paynotify.http;

import java.time.Duration;

/**
 * The HTTP side of the configuration.
 *
 * @param port           0 picks a free port (tests); see {@link NotifyVerticle#actualPort()}
 * @param behindProxy    trust X-Forwarded-For for the address written to notify_log
 * @param shutdownGrace  how long a stop waits for the requests in flight before it cuts them
 */
public record HttpSettings(String host, int port, int maxBodyBytes, Duration requestTimeout, boolean behindProxy,
    Duration shutdownGrace) {}
