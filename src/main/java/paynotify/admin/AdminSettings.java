package paynotify.admin;

/**
 * The admin listener ({@code admin:}): /metrics, /status and /status.json, on a port of their own
 * that nginx does not proxy.
 *
 * @param token when not null, every request needs {@code Authorization: Bearer <token>}; never logged. Null
 *              only on a loopback host, and then only requests for a loopback Host are served (DNS rebinding)
 */
public record AdminSettings(String host, int port, String token) {
  @Override
  public String toString() {
    return host + ":" + port + (token == null ? " (no token: loopback Host only)" : " (token required)");
  }
}
