package paynotify.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.stripe.Stripe;
import com.stripe.exception.AuthenticationException;
import com.stripe.model.Event;
import com.stripe.model.EventCollection;
import com.stripe.model.checkout.Session;
import com.stripe.net.RequestOptions;
import com.stripe.param.EventListParams;
import io.vertx.core.Vertx;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import paynotify.testsupport.StripeNotifications;
import paynotify.testsupport.StripeStandIn;

/**
 * {@link StripeStandIn} answers {@code GET /v1/events} as api.stripe.com does: stripe-java's own
 * {@code Event.list}, pointed at it, reads its pages and their events; and {@link StripeEvents} asks it as
 * stripe-java asks (the same parameters, the same paging).
 */
class StripeEventsSdkTest {
  StripeStandIn stripe;
  String apiBase;

  @BeforeEach
  void start() {
    stripe = StripeStandIn.start();
    apiBase = Stripe.getApiBase();
    Stripe.overrideApiBase(stripe.url().toString());
    for (int i = 0; i < 25; i++) {
      stripe.undelivered(StripeNotifications.event("evt_" + i, "checkout.session.completed",
          StripeNotifications.session("O" + i, "pi_" + i, 8888, "usd")), 600 - i);
    }
    stripe.delivered(StripeNotifications.event("evt_delivered", "payment_intent.succeeded",
        StripeNotifications.paymentIntent("O99", "pi_99", 8888, "usd")));
  }

  @AfterEach
  void stop() {
    Stripe.overrideApiBase(apiBase);
    stripe.close();
  }

  static RequestOptions key(String key) {
    return RequestOptions.builder().setApiKey(key).build();
  }

  @Test
  void theSdkListsTheUndeliveredEventsPageByPage() throws Exception {
    EventListParams params = EventListParams.builder().setDeliverySuccess(false).setLimit(20L)
        .setCreated(EventListParams.Created.builder().setGte(System.currentTimeMillis() / 1000 - 3600).build())
        .build();
    EventCollection first = Event.list(params, key(StripeStandIn.KEY));
    assertThat(first.getData()).hasSize(20);
    assertThat(first.getHasMore()).isTrue();
    Event newest = first.getData().get(0);
    assertThat(newest.getId()).isEqualTo("evt_24");
    assertThat(newest.getType()).isEqualTo("checkout.session.completed");
    Session session = (Session) newest.getDataObjectDeserializer().deserializeUnsafe();
    assertThat(session.getClientReferenceId()).isEqualTo("O24");
    assertThat(session.getPaymentIntent()).isEqualTo("pi_24");

    EventCollection all = Event.list(params, key(StripeStandIn.KEY));
    int seen = 0;
    for (Event e : all.autoPagingIterable()) {
      assertThat(e.getId()).isNotEqualTo("evt_delivered");
      seen++;
    }
    assertThat(seen).isEqualTo(25);
  }

  @Test
  void theSdkIsRefusedWithAnotherKeyAsStripeRefusesIt() {
    assertThatThrownBy(() -> Event.list(EventListParams.builder().build(), key("rk_test_other")))
        .isInstanceOf(AuthenticationException.class);
    assertThat(stripe.refusedRequests()).isEqualTo(1);
  }

  @Test
  void ourClientPagesAsTheSdkDoes() {
    Vertx vertx = Vertx.vertx();
    try {
      StripeEvents events = new StripeEvents(new GatewayHttp(vertx, Duration.ofSeconds(5), 1024 * 1024), stripe.url(),
          StripeStandIn.KEY);
      long since = System.currentTimeMillis() / 1000 - 3600;
      StripeEvents.Page first = events.undelivered(since, null).await();
      assertThat(first.events()).hasSize(StripeEvents.PAGE);
      assertThat(first.hasMore()).isTrue();
      StripeEvents.Page second = events.undelivered(since, first.last()).await();
      assertThat(second.events()).extracting(e -> e.getString("id")).containsExactly("evt_4", "evt_3", "evt_2",
          "evt_1", "evt_0");
      assertThat(second.hasMore()).isFalse();
      GatewayFailure refused = (GatewayFailure) org.assertj.core.api.Assertions.catchThrowable(() ->
          new StripeEvents(new GatewayHttp(vertx, Duration.ofSeconds(5), 1024 * 1024), stripe.url(), "rk_test_other")
              .undelivered(since, null).await());
      assertThat(refused.kind()).isEqualTo(GatewayFailure.Kind.REFUSED);
      assertThat(refused.getMessage()).contains("Events: Read");
    } finally {
      vertx.close().await();
    }
  }
}
