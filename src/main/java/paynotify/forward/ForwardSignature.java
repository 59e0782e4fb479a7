package paynotify.forward;

import paynotify.channel.stripe.StripeSignature;

/**
 * The {@code Paynotify-Signature} header, Stripe's scheme so that any Stripe verification snippet
 * works: {@code t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>}, computed by the very
 * code that checks Stripe's own. Signed at each attempt, so {@code t} says when it was sent and an
 * old request can be refused as a replay.
 */
public final class ForwardSignature {
  private final String secret;

  public ForwardSignature(String secret) {
    this.secret = secret;
  }

  public String header(long unixSeconds, byte[] body) {
    return StripeSignature.header(unixSeconds, body, secret);
  }
}
