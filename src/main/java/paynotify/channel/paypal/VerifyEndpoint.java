package paynotify.channel.paypal;

import java.net.URI;
import java.util.Locale;
import java.util.Set;

/**
 * Who answers VERIFIED for an IPN: PayPal's live hosts, its sandbox's (whose IPN Simulator lets anyone
 * have a "verified" IPN sent, with any receiver_email), a verifier on this machine, or anyone else.
 */
public enum VerifyEndpoint {
  LIVE, SANDBOX, LOOPBACK, OTHER;

  public static final String LIVE_URL = "https://ipnpb.paypal.com/cgi-bin/webscr";
  public static final String SANDBOX_URL = "https://ipnpb.sandbox.paypal.com/cgi-bin/webscr";

  private static final Set<String> LIVE_HOSTS = Set.of("ipnpb.paypal.com", "www.paypal.com");
  private static final Set<String> SANDBOX_HOSTS = Set.of("ipnpb.sandbox.paypal.com", "www.sandbox.paypal.com");
  private static final Set<String> LOOPBACK_HOSTS = Set.of("127.0.0.1", "localhost");

  public static VerifyEndpoint of(URI url) {
    String host = url.getHost() == null ? "" : url.getHost().toLowerCase(Locale.ROOT);
    if (LOOPBACK_HOSTS.contains(host) && ("http".equals(url.getScheme()) || "https".equals(url.getScheme()))) {
      return LOOPBACK;
    }
    // PayPal's hosts over https on the default port, no user part: "https://ipnpb.paypal.com@elsewhere/" is elsewhere
    if (!"https".equals(url.getScheme()) || url.getPort() != -1 && url.getPort() != 443 || url.getUserInfo() != null) {
      return OTHER;
    }
    return LIVE_HOSTS.contains(host) ? LIVE : SANDBOX_HOSTS.contains(host) ? SANDBOX : OTHER;
  }
}
