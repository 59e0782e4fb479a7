package paynotify.admin;

/**
 * The admin listener ({@code admin:}): /metrics, /status and /status.json, on a port of their own
 * that nginx does not proxy.
 *
 * @param token when not null, every request needs {@code Authorization: Bearer <token>}; never logged. Null
 *              only on a loopback host, and then only requests for a loopback Host are served (DNS rebinding)
 * @param followsHttpPort {@code admin.port} is unset and {@code port} is {@code http.port + 1}: a port that is taken
 *              is then fixed by giving the instance another http.port
 */
public record AdminSettings(String host, int port, String token, boolean followsHttpPort) {
  @Override
  public String toString() {
    return host + ":" + port + (token == null ? " (no token: loopback Host only)" : " (token required)");
  }
}
