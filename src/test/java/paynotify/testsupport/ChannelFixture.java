package paynotify.testsupport;

import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPairGenerator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;
import paynotify.channel.Money;
import paynotify.channel.paddle.PaddleSignature;
import paynotify.channel.stripe.StripeSignature;
import paynotify.channel.wechat.WechatV2Signature;
import paynotify.channel.wechat.WechatV3Signature;

/**
 * How to make a channel's notifications in tests, so that one contract test runs the same
 * scenarios (duplicate, concurrent copies, restart, forgeries) on every channel.
 */
public interface ChannelFixture {
  /** Every channel, in one place: a channel added here runs in every suite that takes these. */
  static List<ChannelFixture> all() {
    return List.of(alipay(), wechatV2(), wechatV3(), epay(), stripe(), paypal(), xunhupay(), epusdt(), vmq(),
        paddle(), tokenpay(), lemonSqueezy(), creem());
  }

  /** The channels whose platform notifies refunds. */
  static List<ChannelFixture> sendsRefunds() {
    return all().stream().filter(ChannelFixture::notifiesRefunds).toList();
  }

  String name();

  /** The platform stored with the booking ({@code wechat} for both WeChat APIs). */
  String platform();

  /**
   * A genuine payment notification; each {@code attempt} is a retry as the platform makes them: re-signed,
   * or the same request where the platform sends that again (epusdt, V免签).
   */
  Notification payment(String orderNo, String tradeNo, long cents, int attempt) throws Exception;

  /** Signed with a key that is not the configured one. */
  Notification signedByAnotherKey(String orderNo, String tradeNo, long cents) throws Exception;

  /** Whether the notification names the merchant it is for, which {@link #forAnotherMerchant} changes. */
  default boolean namesMerchant() {
    return true;
  }

  /** Genuinely signed, for another merchant id. */
  default Notification forAnotherMerchant(String orderNo, String tradeNo, long cents) throws Exception {
    throw new UnsupportedOperationException(name() + " names no merchant");
  }

  /** Whether the notification carries its signature, which {@link #missingSignature} leaves out. */
  default boolean carriesSignature() {
    return true;
  }

  /** A payment notification as {@link #payment} makes it, without its signature. */
  default Notification missingSignature(String orderNo, String tradeNo, long cents) throws Exception {
    throw new UnsupportedOperationException(name() + " carries no signature");
  }

  /** Whether the platform notifies statuses that are no payment, one of which {@link #notFinal} makes. */
  default boolean notifiesOtherStatuses() {
    return true;
  }

  /** Genuinely signed, of the trade in a status that books nothing (waiting, cancelled, failed). */
  default Notification notFinal(String orderNo, String tradeNo, long cents) throws Exception {
    throw new UnsupportedOperationException(name() + " notifies payments only");
  }

  /** Whether a payment names its currency, so that {@link #paymentInCurrency} can pay in another than the site's. */
  default boolean namesCurrency() {
    return false;
  }

  /** Genuinely signed, of {@code cents} in {@code currency} (an ISO code, written as the platform writes it). */
  default Notification paymentInCurrency(String orderNo, String tradeNo, long cents, String currency) throws Exception {
    throw new UnsupportedOperationException(name() + " names no currency");
  }

  /** Whether its signature covers a timestamp that is refused once old, as {@link #stalePayment} makes it. */
  default boolean signsATimestamp() {
    return false;
  }

  /** A payment genuinely signed at a time just beyond the channel's default tolerance. */
  default Notification stalePayment(String orderNo, String tradeNo, long cents) throws Exception {
    throw new UnsupportedOperationException(name() + " signs no timestamp");
  }

  /** Whether a notification says it is the platform's test money, as {@link #testModePayment} says it. */
  default boolean marksTestMoney() {
    return false;
  }

  /** Genuinely signed, a payment of the platform's test mode (sandbox), which a live instance must refuse. */
  default Notification testModePayment(String orderNo, String tradeNo, long cents) throws Exception {
    throw new UnsupportedOperationException(name() + " marks no test money");
  }

  /**
   * Whether the platform signs with the old and the new secret while one is rotated: {@link #paymentSignedTwice}
   * is such a notification, {@link #rotationConfiguration} a site that holds both.
   */
  default boolean signsTwiceWhileRotating() {
    return false;
  }

  /** A payment signed with another secret first and the configured one second, as during a rotation. */
  default Notification paymentSignedTwice(String orderNo, String tradeNo, long cents, int attempt) throws Exception {
    throw new UnsupportedOperationException(name() + " has no secret rotation");
  }

  /** Overrides of the test configuration that hold both secrets of {@link #paymentSignedTwice}, ours listed last. */
  default JsonObject rotationConfiguration() throws Exception {
    throw new UnsupportedOperationException(name() + " has no secret rotation");
  }

  /**
   * Whether its signature binds the amount to the order, so that a payment of another amount, or of an unknown order,
   * is kept (real money, with an anomaly). V免签's does not: an amount that is not the order's, or no order, keeps no
   * payment (price_shift).
   */
  default boolean keepsAPaymentOfAnotherAmount() {
    return true;
  }

  /** Genuinely signed for {@code cents}, then the amount changed in transit. */
  Notification amountTampered(String orderNo, String tradeNo, long cents) throws Exception;

  /**
   * Whether the platform notifies refunds, made by {@link #refund}. A channel says false only where its
   * platform sends none, or sends them without an id of their own (Lemon Squeezy: the suites name each refund;
   * the contract suite books its {@link #cumulativeRefund}s): otherwise the refund suites run it, and a refund it
   * cannot make fails them.
   */
  default boolean notifiesRefunds() {
    return true;
  }

  /**
   * A refund of {@code refundCents} on a trade that paid {@code paidCents}, of which
   * {@code refundedSoFar} (this one included) is refunded in all: Alipay reports that total,
   * WeChat the refund's own amount. Each {@code attempt} is signed anew.
   */
  default Notification refund(String orderNo, String tradeNo, long paidCents, String refundNo, long refundCents,
      long refundedSoFar, int attempt) throws Exception {
    throw new UnsupportedOperationException(name() + " sends no refund notifications");
  }

  /**
   * Whether a refund may come as the trade's refunded total with no id of its own ({@link #cumulativeRefund}), keyed
   * by that total: Lemon Squeezy's always, Stripe's Charge without its refunds list (API versions from 2022-11-15).
   */
  default boolean notifiesCumulativeRefunds() {
    return false;
  }

  /** The trade that paid {@code paidCents} refunded {@code refundedSoFar} in all, naming no refund; attempts retry. */
  default Notification cumulativeRefund(String orderNo, String tradeNo, long paidCents, long refundedSoFar,
      int attempt) throws Exception {
    throw new UnsupportedOperationException(name() + " sends no refunded totals");
  }

  /** The refund_no that the channel books a {@link #cumulativeRefund} under. */
  default String cumulativeRefundNo(String tradeNo, long refundedSoFar) {
    throw new UnsupportedOperationException(name() + " sends no refunded totals");
  }

  /**
   * Whether the platform signs a retry anew (a new timestamp, nonce or notify_id), so that {@code attempt}s differ.
   * Creem's signature covers the body alone and a retry is the same request.
   */
  default boolean resignsRetries() {
    return true;
  }

  /** The idempotency key of a refund: WeChat's refund ids are global, Alipay's unique within their trade. */
  default String refundKey(String tradeNo, String refundNo) {
    return platform() + ":refund:" + refundNo;
  }

  /** What the platform must get back for a booked or duplicate notification. */
  Predicate<Http.Reply> success();

  /** What the platform must get back for a refused one (a 4xx and the channel's failure words). */
  Predicate<Http.Reply> refusal();

  /** Name, platform and the expected replies; each channel adds how it makes its notifications. */
  abstract class Base implements ChannelFixture {
    private final String name;
    private final String platform;
    private final Predicate<Http.Reply> success;
    private final Predicate<Http.Reply> refusal;

    Base(String name, String platform, Predicate<Http.Reply> success, Predicate<Http.Reply> refusal) {
      this.name = name;
      this.platform = platform;
      this.success = success;
      this.refusal = refusal;
    }

    public String name() {
      return name;
    }

    public String platform() {
      return platform;
    }

    public Predicate<Http.Reply> success() {
      return success;
    }

    public Predicate<Http.Reply> refusal() {
      return refusal;
    }

    public String toString() {
      return name;
    }
  }

  /** Alipay and epay: the words "success" and "fail". */
  Predicate<Http.Reply> PLAIN_SUCCESS = r -> r.status() == 200 && r.body().equals("success");
  Predicate<Http.Reply> PLAIN_REFUSAL = r -> r.status() >= 400 && r.status() < 500 && r.body().equals("fail");

  static ChannelFixture alipay() {
    return new Base("alipay", "alipay", PLAIN_SUCCESS, PLAIN_REFUSAL) {
      public Notification payment(String orderNo, String tradeNo, long cents, int attempt) {
        return alipayForm(AlipayNotifications.retry(
            AlipayNotifications.payment(orderNo, tradeNo, Money.format(cents)), attempt));
      }

      public Notification refund(String orderNo, String tradeNo, long paidCents, String refundNo, long refundCents,
          long refundedSoFar, int attempt) {
        Map<String, String> p = AlipayNotifications.retry(
            AlipayNotifications.payment(orderNo, tradeNo, Money.format(paidCents)), attempt);
        p.put("trade_status", refundedSoFar >= paidCents ? "TRADE_CLOSED" : "TRADE_SUCCESS");
        p.put("refund_fee", Money.format(refundedSoFar));
        p.put("gmt_refund", "2026-11-29 14:02:33.512");
        p.put("out_biz_no", refundNo);
        return alipayForm(p);
      }

      public String refundKey(String tradeNo, String refundNo) {
        return "alipay:refund:" + tradeNo + ":" + refundNo;
      }

      public Notification signedByAnotherKey(String orderNo, String tradeNo, long cents) {
        return Notification.post("/notify/alipay", "application/x-www-form-urlencoded", AlipayNotifications.signedBody(
            AlipayNotifications.payment(orderNo, tradeNo, Money.format(cents)),
            AlipayNotifications.OTHER_PRIVATE_KEY, StandardCharsets.UTF_8));
      }

      public Notification forAnotherMerchant(String orderNo, String tradeNo, long cents) {
        Map<String, String> p = AlipayNotifications.payment(orderNo, tradeNo, Money.format(cents));
        p.put("app_id", "2021000000000000");
        return alipayForm(p);
      }

      public Notification amountTampered(String orderNo, String tradeNo, long cents) {
        String amount = Money.format(cents);
        Notification n = alipayForm(AlipayNotifications.payment(orderNo, tradeNo, amount));
        return n.withBody(new String(n.body()).replace("total_amount=" + amount, "total_amount=" + (cents + 1) + ".00"));
      }

      public Notification missingSignature(String orderNo, String tradeNo, long cents) {
        return Notification.post("/notify/alipay", "application/x-www-form-urlencoded; charset=utf-8",
            AlipayNotifications.form(AlipayNotifications.payment(orderNo, tradeNo, Money.format(cents)),
                StandardCharsets.UTF_8));
      }

      public Notification notFinal(String orderNo, String tradeNo, long cents) {
        Map<String, String> p = AlipayNotifications.payment(orderNo, tradeNo, Money.format(cents));
        p.put("trade_status", "WAIT_BUYER_PAY");
        return alipayForm(p);
      }

      private Notification alipayForm(Map<String, String> params) {
        return Notification.post("/notify/alipay", "application/x-www-form-urlencoded; charset=utf-8",
            AlipayNotifications.signedBody(params));
      }
    };
  }

  static ChannelFixture wechatV2() {
    return new Base("wechat_v2", "wechat",
        r -> r.status() == 200 && r.body().contains("<return_code><![CDATA[SUCCESS]]>"),
        r -> r.status() >= 400 && r.status() < 500 && r.body().contains("<return_code><![CDATA[FAIL]]>")) {
      public Notification payment(String orderNo, String tradeNo, long cents, int attempt) {
        // one algorithm per merchant (wechat_v2.sign_type): retries differ by their nonce only
        return WechatV2Notifications.signed(WechatV2Notifications.payment(orderNo, tradeNo, cents, attempt));
      }

      public Notification refund(String orderNo, String tradeNo, long paidCents, String refundNo, long refundCents,
          long refundedSoFar, int attempt) throws Exception {
        return WechatV2Notifications.refund(orderNo, tradeNo, paidCents, refundNo, refundCents, attempt);
      }

      public Notification signedByAnotherKey(String orderNo, String tradeNo, long cents) {
        return WechatV2Notifications.signed(WechatV2Notifications.payment(orderNo, tradeNo, cents, 0),
            WechatV2Notifications.OTHER_API_KEY, WechatV2Signature.MD5);
      }

      public Notification forAnotherMerchant(String orderNo, String tradeNo, long cents) {
        Map<String, String> p = WechatV2Notifications.payment(orderNo, tradeNo, cents, 0);
        p.put("mch_id", "1900000000");
        return WechatV2Notifications.signed(p);
      }

      public Notification amountTampered(String orderNo, String tradeNo, long cents) {
        Notification n = WechatV2Notifications.signed(WechatV2Notifications.payment(orderNo, tradeNo, cents, 0));
        return n.withBody(new String(n.body()).replace("<total_fee><![CDATA[" + cents + "]]>",
            "<total_fee><![CDATA[" + (cents * 100) + "]]>"));
      }

      public Notification missingSignature(String orderNo, String tradeNo, long cents) {
        return Notification.post(WechatV2Notifications.PATH, "text/xml; charset=UTF-8",
            WechatV2Notifications.xml(WechatV2Notifications.payment(orderNo, tradeNo, cents, 0)));
      }

      /** A failed payment: WeChat notifies it with result_code FAIL. */
      public Notification notFinal(String orderNo, String tradeNo, long cents) {
        Map<String, String> p = WechatV2Notifications.payment(orderNo, tradeNo, cents, 0);
        p.put("result_code", "FAIL");
        p.put("err_code", "ORDERCLOSED");
        return WechatV2Notifications.signed(p);
      }
    };
  }

  static ChannelFixture wechatV3() {
    return new Base("wechat_v3", "wechat", r -> r.status() == 204 || r.status() == 200,
        r -> r.status() >= 400 && r.status() < 500 && r.body().contains("\"code\":\"FAIL\"")) {
      public Notification payment(String orderNo, String tradeNo, long cents, int attempt) {
        return WechatV3Notifications.payment(orderNo, tradeNo, cents);
      }

      public Notification refund(String orderNo, String tradeNo, long paidCents, String refundNo, long refundCents,
          long refundedSoFar, int attempt) {
        return WechatV3Notifications.refund(orderNo, tradeNo, paidCents, refundNo, refundCents);
      }

      public Notification signedByAnotherKey(String orderNo, String tradeNo, long cents) throws Exception {
        var other = KeyPairGenerator.getInstance("RSA");
        other.initialize(2048);
        return WechatV3Notifications.notification(WechatV3Notifications.transaction(orderNo, tradeNo, cents),
            System.currentTimeMillis() / 1000, other.generateKeyPair().getPrivate(), WechatV3Notifications.PUBLIC_KEY_ID);
      }

      public Notification forAnotherMerchant(String orderNo, String tradeNo, long cents) {
        return WechatV3Notifications.notification(
            WechatV3Notifications.transaction(orderNo, tradeNo, cents).put("mchid", "1900000000"),
            System.currentTimeMillis() / 1000, WechatV3Notifications.PRIVATE_KEY, WechatV3Notifications.PUBLIC_KEY_ID);
      }

      public Notification amountTampered(String orderNo, String tradeNo, long cents) {
        // The amount is inside the encrypted resource: the genuine headers with the body of another amount.
        Notification genuine = WechatV3Notifications.payment(orderNo, tradeNo, cents);
        return new Notification(genuine.method(), genuine.path(), genuine.headers(),
            WechatV3Notifications.payment(orderNo, tradeNo, cents * 100).body(), null);
      }

      public Notification missingSignature(String orderNo, String tradeNo, long cents) {
        Notification genuine = WechatV3Notifications.payment(orderNo, tradeNo, cents);
        Map<String, String> headers = new LinkedHashMap<>(genuine.headers());
        headers.remove(WechatV3Signature.SIGNATURE_HEADER);
        return new Notification(genuine.method(), genuine.path(), headers, genuine.body(), null);
      }

      /** APIv3 notifies successful payments only: its other statuses are of refunds, here one that failed. */
      public Notification notFinal(String orderNo, String tradeNo, long cents) {
        return WechatV3Notifications.refund(orderNo, tradeNo, cents, "R-" + tradeNo, cents, "ABNORMAL");
      }
    };
  }

  static ChannelFixture epay() {
    return new Base("epay", "epay", PLAIN_SUCCESS, PLAIN_REFUSAL) {
      public boolean notifiesRefunds() {
        return false; // epay notifies payments only
      }

      public Notification payment(String orderNo, String tradeNo, long cents, int attempt) throws Exception {
        Map<String, String> p = EpayNotifications.payment(orderNo, tradeNo, Money.format(cents));
        p.put("param", "attempt=" + attempt);
        return EpayNotifications.get(EpayNotifications.signed(p, EpayNotifications.KEY));
      }

      public Notification signedByAnotherKey(String orderNo, String tradeNo, long cents) throws Exception {
        return EpayNotifications.get(EpayNotifications.signed(
            EpayNotifications.payment(orderNo, tradeNo, Money.format(cents)), EpayNotifications.OTHER_KEY));
      }

      public Notification forAnotherMerchant(String orderNo, String tradeNo, long cents) throws Exception {
        Map<String, String> p = EpayNotifications.payment(orderNo, tradeNo, Money.format(cents));
        p.put("pid", "9999");
        return EpayNotifications.get(EpayNotifications.signed(p, EpayNotifications.KEY));
      }

      public Notification amountTampered(String orderNo, String tradeNo, long cents) throws Exception {
        Map<String, String> signed = EpayNotifications.signed(
            EpayNotifications.payment(orderNo, tradeNo, Money.format(cents)), EpayNotifications.KEY);
        signed.put("money", Money.format(cents * 100));
        return EpayNotifications.get(signed);
      }

      public Notification missingSignature(String orderNo, String tradeNo, long cents) {
        return EpayNotifications.get(EpayNotifications.payment(orderNo, tradeNo, Money.format(cents)));
      }

      public Notification notFinal(String orderNo, String tradeNo, long cents) throws Exception {
        Map<String, String> p = EpayNotifications.payment(orderNo, tradeNo, Money.format(cents));
        p.put("trade_status", "TRADE_CLOSED");
        return EpayNotifications.get(EpayNotifications.signed(p, EpayNotifications.KEY));
      }
    };
  }

  static ChannelFixture stripe() {
    return new Base("stripe", "stripe", r -> r.status() == 200,
        r -> r.status() >= 400 && r.status() < 500 && r.body().contains("\"error\"")) {
      /**
       * Even attempts: the Session's checkout.session.completed; odd ones: its payment_intent.succeeded
       * with metadata.order_no. Both are the one payment of the PaymentIntent, as on a real site.
       */
      public Notification payment(String orderNo, String tradeNo, long cents, int attempt) {
        return payment(orderNo, tradeNo, cents, attempt, StripeNotifications.SECRET);
      }

      public Notification refund(String orderNo, String tradeNo, long paidCents, String refundNo, long refundCents,
          long refundedSoFar, int attempt) {
        return signedAt(attempt, StripeNotifications.event("evt_" + refundNo, "charge.refunded", StripeNotifications
            .refundedCharge(tradeNo, paidCents, refundNo, refundCents, refundedSoFar, StripeNotifications.CURRENCY)),
            StripeNotifications.SECRET);
      }

      public boolean notifiesCumulativeRefunds() {
        return true;
      }

      public Notification cumulativeRefund(String orderNo, String tradeNo, long paidCents, long refundedSoFar,
          int attempt) {
        return signedAt(attempt, StripeNotifications.event("evt_" + tradeNo + "_" + refundedSoFar, "charge.refunded",
            StripeNotifications.refundedCharge(tradeNo, paidCents, refundedSoFar, StripeNotifications.CURRENCY)),
            StripeNotifications.SECRET);
      }

      public String cumulativeRefundNo(String tradeNo, long refundedSoFar) {
        return "ch_" + tradeNo + "@" + refundedSoFar;
      }

      public boolean namesCurrency() {
        return true;
      }

      public Notification paymentInCurrency(String orderNo, String tradeNo, long cents, String currency) {
        return StripeNotifications.signed(sessionEvent(orderNo, tradeNo, cents, currency.toLowerCase(Locale.ROOT)));
      }

      public boolean signsATimestamp() {
        return true;
      }

      public Notification stalePayment(String orderNo, String tradeNo, long cents) {
        return signedAt((int) StripeSignature.DEFAULT_TOLERANCE.toSeconds() + 1, sessionEvent(orderNo, tradeNo, cents),
            StripeNotifications.SECRET);
      }

      public boolean marksTestMoney() {
        return true;
      }

      /** Paid in test mode (livemode false): what a test endpoint's secret left in the live configuration lets in. */
      public Notification testModePayment(String orderNo, String tradeNo, long cents) {
        JsonObject event = sessionEvent(orderNo, tradeNo, cents).put("livemode", false);
        event.getJsonObject("data").getJsonObject("object").put("livemode", false);
        return StripeNotifications.signed(event);
      }

      public boolean signsTwiceWhileRotating() {
        return true;
      }

      /** Signed with the rolled secret and this one, as Stripe signs until the rolled one expires. */
      public Notification paymentSignedTwice(String orderNo, String tradeNo, long cents, int attempt) {
        return payment(orderNo, tradeNo, cents, attempt, StripeNotifications.OTHER_SECRET, StripeNotifications.SECRET);
      }

      public JsonObject rotationConfiguration() {
        return new JsonObject().put("stripe", new JsonObject().put("webhook_secret",
            StripeNotifications.OTHER_SECRET + "," + StripeNotifications.SECRET));
      }

      public Notification signedByAnotherKey(String orderNo, String tradeNo, long cents) {
        return StripeNotifications.signed(sessionEvent(orderNo, tradeNo, cents).encode(),
            System.currentTimeMillis() / 1000, StripeNotifications.OTHER_SECRET);
      }

      /** An event of a connected account (a Connect endpoint): not this site's money. */
      public Notification forAnotherMerchant(String orderNo, String tradeNo, long cents) {
        return StripeNotifications.signed(sessionEvent(orderNo, tradeNo, cents).put("account", "acct_1Other0000000000"));
      }

      public Notification amountTampered(String orderNo, String tradeNo, long cents) {
        Notification n = StripeNotifications.signed(sessionEvent(orderNo, tradeNo, cents));
        return n.withBody(new String(n.body(), StandardCharsets.UTF_8)
            .replace("\"amount_total\":" + cents, "\"amount_total\":" + cents * 100));
      }

      public Notification missingSignature(String orderNo, String tradeNo, long cents) {
        return Notification.post("/notify/stripe", "application/json; charset=utf-8",
            sessionEvent(orderNo, tradeNo, cents).encode());
      }

      /** A Session paid by a delayed method: completed, its payment still to come. */
      public Notification notFinal(String orderNo, String tradeNo, long cents) {
        return StripeNotifications.signed(StripeNotifications.event("evt_cs_" + tradeNo, "checkout.session.completed",
            StripeNotifications.session(orderNo, tradeNo, cents, StripeNotifications.CURRENCY)
                .put("payment_status", "unpaid")));
      }

      /** {@link #payment} signed with {@code secrets}: a retry is the same event, signed again at its own time. */
      private Notification payment(String orderNo, String tradeNo, long cents, int attempt, String... secrets) {
        return signedAt(attempt, attempt % 2 == 0 ? sessionEvent(orderNo, tradeNo, cents)
            : StripeNotifications.event("evt_pi_" + tradeNo, "payment_intent.succeeded",
                StripeNotifications.paymentIntent(orderNo, tradeNo, cents, StripeNotifications.CURRENCY)), secrets);
      }

      /** Signed {@code secondsAgo} seconds ago. */
      private Notification signedAt(int secondsAgo, JsonObject event, String... secrets) {
        return StripeNotifications.signed(event.encode(), System.currentTimeMillis() / 1000 - secondsAgo, secrets);
      }

      private JsonObject sessionEvent(String orderNo, String tradeNo, long cents) {
        return sessionEvent(orderNo, tradeNo, cents, StripeNotifications.CURRENCY);
      }

      private JsonObject sessionEvent(String orderNo, String tradeNo, long cents, String currency) {
        return StripeNotifications.event("evt_cs_" + tradeNo, "checkout.session.completed",
            StripeNotifications.session(orderNo, tradeNo, cents, currency));
      }
    };
  }

  /**
   * PayPal IPN: no signature, the local {@link PaypalVerifier} plays PayPal's verification endpoint.
   * PayPal's own retries are the same bytes (PaypalIpnTest sends those); a later {@code attempt} here is
   * a resend from the IPN History page, which PayPal marks {@code resend=true}. "Another key" is a body
   * PayPal never sent, which it answers INVALID.
   */
  static ChannelFixture paypal() {
    return new Base("paypal", "paypal", r -> r.status() == 200 && r.body().isEmpty(),
        r -> r.status() >= 400 && r.status() < 500) {
      public Notification payment(String orderNo, String tradeNo, long cents, int attempt) {
        return PaypalNotifications.genuine(
            PaypalNotifications.resent(PaypalNotifications.payment(orderNo, tradeNo, cents), attempt));
      }

      public Notification refund(String orderNo, String tradeNo, long paidCents, String refundNo, long refundCents,
          long refundedSoFar, int attempt) {
        return PaypalNotifications.genuine(
            PaypalNotifications.resent(PaypalNotifications.refund(orderNo, tradeNo, refundNo, refundCents), attempt));
      }

      public Notification signedByAnotherKey(String orderNo, String tradeNo, long cents) {
        Map<String, String> forged = PaypalNotifications.payment(orderNo, tradeNo, cents);
        forged.put("verify_sign", "forged" + System.nanoTime()); // bytes PayPal never sent, whatever was issued
        return PaypalNotifications.unissued(PaypalNotifications.form(forged, PaypalNotifications.WINDOWS_1252));
      }

      public Notification forAnotherMerchant(String orderNo, String tradeNo, long cents) {
        Map<String, String> p = PaypalNotifications.payment(orderNo, tradeNo, cents);
        p.put("receiver_email", "someone.else@example.com");
        p.put("business", "someone.else@example.com");
        p.put("receiver_id", "OTHER0MERCHNT");
        return PaypalNotifications.genuine(p);
      }

      public Notification amountTampered(String orderNo, String tradeNo, long cents) {
        Notification n = PaypalNotifications.genuine(PaypalNotifications.payment(orderNo, tradeNo, cents));
        return n.withBody(new String(n.body(), StandardCharsets.ISO_8859_1)
            .replace("mc_gross=" + Money.format(cents), "mc_gross=" + Money.format(cents * 100)));
      }

      public boolean carriesSignature() {
        return false; // PayPal answers whether it sent the IPN; its verify_sign is not ours to check
      }

      public boolean namesCurrency() {
        return true;
      }

      public Notification paymentInCurrency(String orderNo, String tradeNo, long cents, String currency) {
        Map<String, String> p = PaypalNotifications.payment(orderNo, tradeNo, cents);
        p.put("mc_currency", currency);
        return PaypalNotifications.genuine(p);
      }

      public boolean marksTestMoney() {
        return true;
      }

      /** A sandbox IPN (test_ipn=1), which anyone can have the IPN Simulator send with this receiver. */
      public Notification testModePayment(String orderNo, String tradeNo, long cents) {
        Map<String, String> p = PaypalNotifications.payment(orderNo, tradeNo, cents);
        p.put("test_ipn", "1");
        return PaypalNotifications.genuine(p);
      }

      public Notification notFinal(String orderNo, String tradeNo, long cents) {
        Map<String, String> p = PaypalNotifications.payment(orderNo, tradeNo, cents);
        p.put("payment_status", "Pending");
        p.put("pending_reason", "echeck");
        return PaypalNotifications.genuine(p);
      }
    };
  }

  /** 虎皮椒: the trade is open_order_id, the platform's own order id; each retry has its nonce_str and time. */
  static ChannelFixture xunhupay() {
    return new Base("xunhupay", "xunhupay", PLAIN_SUCCESS, PLAIN_REFUSAL) {
      public boolean notifiesRefunds() {
        return false; // its refund statuses (CD, RD, UD) are acknowledged, not booked
      }

      public Notification payment(String orderNo, String tradeNo, long cents, int attempt) {
        return XunhupayNotifications.signed(paid(orderNo, tradeNo, cents, attempt));
      }

      public Notification signedByAnotherKey(String orderNo, String tradeNo, long cents) {
        return XunhupayNotifications.post(XunhupayNotifications.signed(paid(orderNo, tradeNo, cents, 0),
            XunhupayNotifications.OTHER_APPSECRET));
      }

      public Notification forAnotherMerchant(String orderNo, String tradeNo, long cents) {
        Map<String, String> p = paid(orderNo, tradeNo, cents, 0);
        p.put("appid", XunhupayNotifications.OTHER_APPID);
        return XunhupayNotifications.signed(p);
      }

      public Notification amountTampered(String orderNo, String tradeNo, long cents) {
        Map<String, String> signed = XunhupayNotifications.signed(paid(orderNo, tradeNo, cents, 0),
            XunhupayNotifications.APPSECRET);
        signed.put("total_fee", Money.format(cents * 100));
        return XunhupayNotifications.post(signed);
      }

      public Notification missingSignature(String orderNo, String tradeNo, long cents) {
        return XunhupayNotifications.post(paid(orderNo, tradeNo, cents, 0));
      }

      /** Waiting for the buyer (WP), as its query API calls it. */
      public Notification notFinal(String orderNo, String tradeNo, long cents) {
        Map<String, String> p = paid(orderNo, tradeNo, cents, 0);
        p.put("status", "WP");
        return XunhupayNotifications.signed(p);
      }

      private Map<String, String> paid(String orderNo, String tradeNo, long cents, int attempt) {
        return XunhupayNotifications.payment(orderNo, tradeNo, Money.format(cents), attempt);
      }
    };
  }

  /**
   * epusdt in GMWalletApp's shape, whose pid the test configuration names. Its servers retry with the same
   * body, so every attempt is the same.
   */
  static ChannelFixture epusdt() {
    return new Base("epusdt", "epusdt", r -> r.status() == 200 && r.body().equals("ok"), PLAIN_REFUSAL) {
      public boolean notifiesRefunds() {
        return false; // epusdt notifies payments only
      }

      public Notification payment(String orderNo, String tradeNo, long cents, int attempt) {
        return EpusdtNotifications.signed(paid(orderNo, tradeNo, cents));
      }

      public Notification signedByAnotherKey(String orderNo, String tradeNo, long cents) {
        return EpusdtNotifications.post(EpusdtNotifications.signed(paid(orderNo, tradeNo, cents),
            EpusdtNotifications.OTHER_TOKEN));
      }

      public Notification forAnotherMerchant(String orderNo, String tradeNo, long cents) {
        Map<String, Object> f = paid(orderNo, tradeNo, cents);
        f.put("pid", EpusdtNotifications.OTHER_PID);
        return EpusdtNotifications.signed(f);
      }

      public Notification amountTampered(String orderNo, String tradeNo, long cents) {
        Map<String, Object> signed = EpusdtNotifications.signed(paid(orderNo, tradeNo, cents),
            EpusdtNotifications.TOKEN);
        signed.put("amount", new EpusdtNotifications.Num(EpusdtNotifications.amount(cents * 100)));
        return EpusdtNotifications.post(signed);
      }

      public Notification missingSignature(String orderNo, String tradeNo, long cents) {
        return EpusdtNotifications.post(paid(orderNo, tradeNo, cents));
      }

      /** Still waiting (status 1), which BEpusdt pushes every minute. */
      public Notification notFinal(String orderNo, String tradeNo, long cents) {
        Map<String, Object> f = paid(orderNo, tradeNo, cents);
        f.put("status", new EpusdtNotifications.Num("1"));
        return EpusdtNotifications.signed(f);
      }

      private Map<String, Object> paid(String orderNo, String tradeNo, long cents) {
        return EpusdtNotifications.gmwallet(orderNo, tradeNo, EpusdtNotifications.amount(cents));
      }
    };
  }

  /**
   * V免签 with the order in param (vmq.order_field: param, as dujiaoka sends it), so that order and trade
   * (payId) differ. It sends no timestamp: a retry (the admin's 补单) is the same request.
   */
  static ChannelFixture vmq() {
    return new Base("vmq", "vmq", PLAIN_SUCCESS, PLAIN_REFUSAL) {
      public boolean notifiesRefunds() {
        return false; // V免签 notifies payments only
      }

      public boolean namesMerchant() {
        return false; // one key per server, no merchant id
      }

      public boolean notifiesOtherStatuses() {
        return false; // no status: every notification is a payment
      }

      public boolean keepsAPaymentOfAnotherAmount() {
        return false; // its sign concatenates the values: a price's digits may be another value's
      }

      public Notification payment(String orderNo, String tradeNo, long cents, int attempt) {
        return VmqNotifications.signed(paid(orderNo, tradeNo, cents));
      }

      public Notification signedByAnotherKey(String orderNo, String tradeNo, long cents) {
        return VmqNotifications.get(VmqNotifications.signed(paid(orderNo, tradeNo, cents), VmqNotifications.OTHER_KEY));
      }

      public Notification amountTampered(String orderNo, String tradeNo, long cents) {
        Map<String, String> signed = VmqNotifications.signed(paid(orderNo, tradeNo, cents), VmqNotifications.KEY);
        signed.put("price", VmqNotifications.price(cents * 100));
        signed.put("reallyPrice", VmqNotifications.price(cents * 100));
        return VmqNotifications.get(signed);
      }

      public Notification missingSignature(String orderNo, String tradeNo, long cents) {
        return VmqNotifications.get(paid(orderNo, tradeNo, cents));
      }

      private Map<String, String> paid(String orderNo, String tradeNo, long cents) {
        String price = VmqNotifications.price(cents);
        return VmqNotifications.payment(tradeNo, orderNo, price, price);
      }
    };
  }

  /**
   * Paddle Billing: even attempts are the transaction's transaction.completed, odd ones its transaction.paid (Paddle
   * does not promise which comes first), each retry signed again at its own ts. No merchant id: the destination's
   * secret is what binds an event to this site.
   */
  static ChannelFixture paddle() {
    return new Base("paddle", "paddle", r -> r.status() == 200 && r.body().isEmpty(),
        r -> r.status() >= 400 && r.status() < 500) {
      public boolean namesMerchant() {
        return false;
      }

      public Notification payment(String orderNo, String tradeNo, long cents, int attempt) {
        return payment(orderNo, tradeNo, cents, attempt, PaddleNotifications.SECRET);
      }

      public boolean namesCurrency() {
        return true;
      }

      /** Paddle localises prices: a buyer in another country may pay in its currency. */
      public Notification paymentInCurrency(String orderNo, String tradeNo, long cents, String currency) {
        return PaddleNotifications.signed(event(orderNo, tradeNo, cents, "completed", currency));
      }

      public boolean signsATimestamp() {
        return true;
      }

      public Notification stalePayment(String orderNo, String tradeNo, long cents) {
        return payment(orderNo, tradeNo, cents, (int) PaddleSignature.DEFAULT_TOLERANCE.toSeconds() + 1,
            PaddleNotifications.SECRET);
      }

      public boolean signsTwiceWhileRotating() {
        return true;
      }

      /** One h1 with each active secret of the destination, as Paddle signs while one is rotated. */
      public Notification paymentSignedTwice(String orderNo, String tradeNo, long cents, int attempt) {
        return payment(orderNo, tradeNo, cents, attempt, PaddleNotifications.OTHER_SECRET, PaddleNotifications.SECRET);
      }

      /** Both secrets in paddle.webhook_secrets_file, one a line, as a site holds them during a rotation. */
      public JsonObject rotationConfiguration() throws IOException {
        Path file = Files.createTempFile("paddle_secrets", "");
        file.toFile().deleteOnExit();
        PrivateFile.write(file, PaddleNotifications.OTHER_SECRET + "\n" + PaddleNotifications.SECRET + "\n");
        return new JsonObject().put("paddle", new JsonObject().put("webhook_secret", "")
            .put("webhook_secrets_file", file.toString()));
      }

      /** An approved refund adjustment: its total is this refund's own, keyed by its adj_ id. */
      public Notification refund(String orderNo, String tradeNo, long paidCents, String refundNo, long refundCents,
          long refundedSoFar, int attempt) {
        return PaddleNotifications.signed(PaddleNotifications.event("evt_" + refundNo, "adjustment.updated",
            PaddleNotifications.adjustment(refundNo, tradeNo, "refund", "approved", refundCents)).encode(),
            System.currentTimeMillis() / 1000 - attempt, PaddleNotifications.SECRET);
      }

      public Notification signedByAnotherKey(String orderNo, String tradeNo, long cents) {
        return PaddleNotifications.signed(event(orderNo, tradeNo, cents, "completed").encode(),
            System.currentTimeMillis() / 1000, PaddleNotifications.OTHER_SECRET);
      }

      public Notification amountTampered(String orderNo, String tradeNo, long cents) {
        Notification n = PaddleNotifications.signed(event(orderNo, tradeNo, cents, "completed"));
        return n.withBody(new String(n.body(), StandardCharsets.UTF_8)
            .replace("\"grand_total\":\"" + cents + "\"", "\"grand_total\":\"" + cents * 100 + "\""));
      }

      public Notification missingSignature(String orderNo, String tradeNo, long cents) {
        return Notification.post(PaddleNotifications.PATH, "application/json",
            event(orderNo, tradeNo, cents, "completed").encode());
      }

      /** Billed, not yet paid: transaction.billed, which books nothing. */
      public Notification notFinal(String orderNo, String tradeNo, long cents) {
        return PaddleNotifications.signed(PaddleNotifications.event("evt_billed_" + tradeNo, "transaction.billed",
            PaddleNotifications.transaction(orderNo, tradeNo, cents, PaddleNotifications.CURRENCY, "billed", "web")));
      }

      /** Even attempts transaction.completed, odd ones transaction.paid, signed {@code attempt} s ago. */
      private Notification payment(String orderNo, String tradeNo, long cents, int attempt, String... secrets) {
        String status = attempt % 2 == 0 ? "completed" : "paid";
        return PaddleNotifications.signed(event(orderNo, tradeNo, cents, status).encode(),
            System.currentTimeMillis() / 1000 - attempt, secrets);
      }

      private JsonObject event(String orderNo, String tradeNo, long cents, String status) {
        return event(orderNo, tradeNo, cents, status, PaddleNotifications.CURRENCY);
      }

      private JsonObject event(String orderNo, String tradeNo, long cents, String status, String currency) {
        return PaddleNotifications.event("evt_" + status + "_" + tradeNo, "transaction." + status,
            PaddleNotifications.transaction(orderNo, tradeNo, cents, currency, status, "web"));
      }
    };
  }

  /**
   * TokenPay: one ApiToken per TokenPay instance, no merchant id in the message, no refunds (on-chain), and each
   * retry the same body (ToDic of the same order).
   */
  static ChannelFixture tokenpay() {
    return new Base("tokenpay", "tokenpay", r -> r.status() == 200 && r.body().equals("ok"), PLAIN_REFUSAL) {
      public boolean notifiesRefunds() {
        return false;
      }

      public boolean namesMerchant() {
        return false;
      }

      public Notification payment(String orderNo, String tradeNo, long cents, int attempt) {
        return TokenPayNotifications.signed(TokenPayNotifications.paid(orderNo, tradeNo, cents));
      }

      public boolean namesCurrency() {
        return true;
      }

      /** BaseCurrency, the fiat the order was priced in, other than tokenpay.currency (CNY): the coins are real. */
      public Notification paymentInCurrency(String orderNo, String tradeNo, long cents, String currency) {
        Map<String, Object> f = TokenPayNotifications.paid(orderNo, tradeNo, cents);
        f.put("BaseCurrency", currency);
        return TokenPayNotifications.signed(f);
      }

      public Notification signedByAnotherKey(String orderNo, String tradeNo, long cents) {
        return TokenPayNotifications.post(TokenPayNotifications.signed(TokenPayNotifications.paid(orderNo, tradeNo,
            cents), TokenPayNotifications.OTHER_API_TOKEN));
      }

      public Notification amountTampered(String orderNo, String tradeNo, long cents) {
        Map<String, Object> signed = TokenPayNotifications.signed(TokenPayNotifications.paid(orderNo, tradeNo, cents),
            TokenPayNotifications.API_TOKEN);
        signed.put("ActualAmount", Money.format(cents * 100));
        return TokenPayNotifications.post(signed);
      }

      public Notification missingSignature(String orderNo, String tradeNo, long cents) {
        return TokenPayNotifications.post(TokenPayNotifications.paid(orderNo, tradeNo, cents));
      }

      /** Expired (Status 2): TokenPay notifies paid orders only, so a signed other status must book nothing. */
      public Notification notFinal(String orderNo, String tradeNo, long cents) {
        Map<String, Object> f = TokenPayNotifications.paid(orderNo, tradeNo, cents);
        f.put("Status", 2);
        return TokenPayNotifications.signed(f);
      }
    };
  }

  /**
   * Lemon Squeezy: order_created of a paid Order, the trade its data.id. Lemon Squeezy signs no timestamp, so a retry
   * is the same request. Its refunds carry the order's refunded total and no refund id of their own, keyed by that
   * total: the refund suites, which name each refund, cannot run it; the contract suite runs its
   * {@link #cumulativeRefund}s.
   */
  static ChannelFixture lemonSqueezy() {
    return new Base("lemonsqueezy", "lemonsqueezy", r -> r.status() == 200,
        r -> r.status() >= 400 && r.status() < 500 && r.body().contains("\"error\"")) {
      public boolean notifiesRefunds() {
        return false; // they do, without refund ids: see above
      }

      public Notification payment(String orderNo, String tradeNo, long cents, int attempt) {
        return LemonSqueezyNotifications.signed(LemonSqueezyNotifications.paid(orderNo, tradeNo, cents));
      }

      public boolean notifiesCumulativeRefunds() {
        return true;
      }

      public Notification cumulativeRefund(String orderNo, String tradeNo, long paidCents, long refundedSoFar,
          int attempt) {
        return LemonSqueezyNotifications.signed(LemonSqueezyNotifications.refunded(orderNo, tradeNo, paidCents,
            refundedSoFar));
      }

      public String cumulativeRefundNo(String tradeNo, long refundedSoFar) {
        return tradeNo + "@" + refundedSoFar;
      }

      public boolean namesCurrency() {
        return true;
      }

      /** Lemon Squeezy charges buyers in their own currency. */
      public Notification paymentInCurrency(String orderNo, String tradeNo, long cents, String currency) {
        return LemonSqueezyNotifications.signed(LemonSqueezyNotifications.event("order_created", orderNo,
            LemonSqueezyNotifications.order(tradeNo, cents, currency)));
      }

      public boolean marksTestMoney() {
        return true;
      }

      /** An order of the store's test mode (meta.test_mode, and the Order's own test_mode). */
      public Notification testModePayment(String orderNo, String tradeNo, long cents) {
        JsonObject event = LemonSqueezyNotifications.paid(orderNo, tradeNo, cents);
        event.getJsonObject("meta").put("test_mode", true);
        event.getJsonObject("data").getJsonObject("attributes").put("test_mode", true);
        return LemonSqueezyNotifications.signed(event);
      }

      public Notification signedByAnotherKey(String orderNo, String tradeNo, long cents) {
        return LemonSqueezyNotifications.signed(LemonSqueezyNotifications.paid(orderNo, tradeNo, cents).encode(),
            LemonSqueezyNotifications.OTHER_SECRET, "order_created");
      }

      /** An order of another store of the same account. */
      public Notification forAnotherMerchant(String orderNo, String tradeNo, long cents) {
        JsonObject event = LemonSqueezyNotifications.paid(orderNo, tradeNo, cents);
        event.getJsonObject("data").getJsonObject("attributes").put("store_id", LemonSqueezyNotifications.OTHER_STORE_ID);
        return LemonSqueezyNotifications.signed(event);
      }

      public Notification amountTampered(String orderNo, String tradeNo, long cents) {
        Notification n = LemonSqueezyNotifications.signed(LemonSqueezyNotifications.paid(orderNo, tradeNo, cents));
        return n.withBody(new String(n.body(), StandardCharsets.UTF_8)
            .replace("\"total\":" + cents, "\"total\":" + cents * 100));
      }

      public Notification missingSignature(String orderNo, String tradeNo, long cents) {
        return LemonSqueezyNotifications.unsigned(LemonSqueezyNotifications.paid(orderNo, tradeNo, cents));
      }

      /** An order still pending (a payment method that settles later). */
      public Notification notFinal(String orderNo, String tradeNo, long cents) {
        JsonObject event = LemonSqueezyNotifications.paid(orderNo, tradeNo, cents);
        event.getJsonObject("data").getJsonObject("attributes").put("status", "pending");
        return LemonSqueezyNotifications.signed(event);
      }
    };
  }

  /**
   * Creem: a checkout.completed whose request_id names the order, the trade its order (ord_...). Creem retries with
   * the same request; a refund.created is one refund, booked by its id. No merchant id: a Test Mode event is the
   * genuinely signed one that is not this site's money (403, {@link #testModePayment}).
   */
  static ChannelFixture creem() {
    return new Base("creem", "creem", r -> r.status() == 200,
        r -> r.status() >= 400 && r.status() < 500 && r.body().contains("\"error\"")) {
      public boolean resignsRetries() {
        return false;
      }

      public Notification payment(String orderNo, String tradeNo, long cents, int attempt) {
        return CreemNotifications.signed(paid(orderNo, tradeNo, cents));
      }

      public Notification refund(String orderNo, String tradeNo, long paidCents, String refundNo, long refundCents,
          long refundedSoFar, int attempt) {
        return CreemNotifications.signed(CreemNotifications.event("evt_" + refundNo, "refund.created",
            CreemNotifications.refund(refundNo, tradeNo, refundCents, "succeeded", CreemNotifications.CURRENCY)));
      }

      public Notification signedByAnotherKey(String orderNo, String tradeNo, long cents) {
        return CreemNotifications.signed(paid(orderNo, tradeNo, cents).encode(), CreemNotifications.OTHER_SECRET);
      }

      public boolean namesMerchant() {
        return false;
      }

      public boolean namesCurrency() {
        return true;
      }

      public Notification paymentInCurrency(String orderNo, String tradeNo, long cents, String currency) {
        return CreemNotifications.signed(paid(orderNo, tradeNo, cents, currency));
      }

      public boolean marksTestMoney() {
        return true;
      }

      public Notification testModePayment(String orderNo, String tradeNo, long cents) {
        JsonObject event = paid(orderNo, tradeNo, cents);
        event.getJsonObject("object").put("mode", "test");
        return CreemNotifications.signed(event);
      }

      public Notification amountTampered(String orderNo, String tradeNo, long cents) {
        Notification n = CreemNotifications.signed(paid(orderNo, tradeNo, cents));
        return n.withBody(new String(n.body(), StandardCharsets.UTF_8)
            .replace("\"amount_paid\":" + cents, "\"amount_paid\":" + cents * 100));
      }

      public Notification missingSignature(String orderNo, String tradeNo, long cents) {
        return CreemNotifications.unsigned(paid(orderNo, tradeNo, cents));
      }

      /** A checkout completed whose order is still pending. */
      public Notification notFinal(String orderNo, String tradeNo, long cents) {
        JsonObject event = paid(orderNo, tradeNo, cents);
        event.getJsonObject("object").getJsonObject("order").put("status", "pending");
        return CreemNotifications.signed(event);
      }

      private JsonObject paid(String orderNo, String tradeNo, long cents) {
        return paid(orderNo, tradeNo, cents, CreemNotifications.CURRENCY);
      }

      private JsonObject paid(String orderNo, String tradeNo, long cents, String currency) {
        return CreemNotifications.event("evt_" + tradeNo, "checkout.completed",
            CreemNotifications.checkout(orderNo, tradeNo, cents, currency));
      }
    };
  }
}
