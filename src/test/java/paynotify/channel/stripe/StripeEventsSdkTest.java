package paynotify.channel.stripe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.stripe.Stripe;
import com.stripe.exception.AuthenticationException;
import com.stripe.exception.InvalidRequestException;
import com.stripe.model.Event;
import com.stripe.model.EventCollection;
import com.stripe.model.checkout.Session;
import com.stripe.net.RequestOptions;
import com.stripe.param.EventListParams;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import paynotify.channel.Outbound;
import paynotify.net.OutboundFailure;
import paynotify.net.OutboundHttp;
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

  /** The SDK's own Event.list with a created window, in pages, and with each cursor: what Stripe's reference says. */
  @Test
  void theSdkPagesACreatedWindowAndBothCursors() throws Exception {
    Map<String, Long> created = new HashMap<>();
    for (Event e : Event.list(EventListParams.builder().setLimit(100L).build(), key(StripeStandIn.KEY))
        .autoPagingIterable()) {
      created.put(e.getId(), e.getCreated());
    }
    assertThat(created).hasSize(26);

    EventListParams window = EventListParams.builder().setDeliverySuccess(false).setLimit(4L)
        .setCreated(EventListParams.Created.builder().setGte(created.get("evt_5")).setLt(created.get("evt_15")).build())
        .build();
    assertThat(ids(Event.list(window, key(StripeStandIn.KEY)).autoPagingIterable())).containsExactly("evt_14",
        "evt_13", "evt_12", "evt_11", "evt_10", "evt_9", "evt_8", "evt_7", "evt_6", "evt_5");
    EventListParams open = EventListParams.builder().setDeliverySuccess(false).setLimit(4L)
        .setCreated(EventListParams.Created.builder().setGt(created.get("evt_20")).setLte(created.get("evt_22"))
            .build())
        .build();
    assertThat(ids(Event.list(open, key(StripeStandIn.KEY)).autoPagingIterable())).containsExactly("evt_22", "evt_21");
    assertThat(ids(Event.list(EventListParams.builder().setCreated(created.get("evt_3")).build(),
        key(StripeStandIn.KEY)).autoPagingIterable())).containsExactly("evt_3");

    // ending_before: the newer page next to the cursor, still newest first; has_more while newer ones remain
    EventCollection newer = Event.list(EventListParams.builder().setDeliverySuccess(false).setLimit(3L)
        .setEndingBefore("evt_10").build(), key(StripeStandIn.KEY));
    assertThat(ids(newer.getData())).containsExactly("evt_13", "evt_12", "evt_11");
    assertThat(newer.getHasMore()).isTrue();
    EventCollection newest = Event.list(EventListParams.builder().setDeliverySuccess(false).setLimit(3L)
        .setEndingBefore("evt_22").build(), key(StripeStandIn.KEY));
    assertThat(ids(newest.getData())).containsExactly("evt_24", "evt_23");
    assertThat(newest.getHasMore()).isFalse();
    EventCollection older = Event.list(EventListParams.builder().setDeliverySuccess(false).setLimit(3L)
        .setStartingAfter("evt_2").build(), key(StripeStandIn.KEY));
    assertThat(ids(older.getData())).containsExactly("evt_1", "evt_0");
    assertThat(older.getHasMore()).isFalse();
  }

  @Test
  void theSdkIsRefusedWhatStripeRefuses() {
    assertThatThrownBy(() -> Event.list(EventListParams.builder().setStartingAfter("evt_nowhere").build(),
        key(StripeStandIn.KEY))).isInstanceOf(InvalidRequestException.class).hasMessageContaining("evt_nowhere");
    assertThatThrownBy(() -> Event.list(EventListParams.builder().setLimit(101L).build(), key(StripeStandIn.KEY)))
        .isInstanceOf(InvalidRequestException.class).hasMessageContaining("limit");
    assertThatThrownBy(() -> Event.list(EventListParams.builder().setStartingAfter("evt_1").setEndingBefore("evt_3")
        .build(), key(StripeStandIn.KEY))).isInstanceOf(InvalidRequestException.class);
  }

  static List<String> ids(Iterable<Event> events) {
    List<String> ids = new ArrayList<>();
    events.forEach(e -> ids.add(e.getId()));
    return ids;
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
      StripeEvents events = new StripeEvents(new OutboundHttp(vertx, Duration.ofSeconds(5), 1024 * 1024), stripe.url(),
          StripeStandIn.KEY, null);
      long since = System.currentTimeMillis() / 1000 - 3600;
      long until = System.currentTimeMillis() / 1000 + 1;
      Outbound.Page first = events.page(since, until, null).await();
      assertThat(first.events()).hasSize(StripeEvents.PAGE);
      assertThat(first.hasMore()).isTrue();
      Outbound.Page second = events.page(since, until, first.after()).await();
      assertThat(second.events()).extracting(Outbound.Missed::id).containsExactly("evt_4", "evt_3", "evt_2",
          "evt_1", "evt_0");
      assertThat(second.hasMore()).isFalse();
      OutboundFailure refused = (OutboundFailure) org.assertj.core.api.Assertions.catchThrowable(() ->
          new StripeEvents(new OutboundHttp(vertx, Duration.ofSeconds(5), 1024 * 1024), stripe.url(), "rk_test_other",
              null).page(since, until, null).await());
      assertThat(refused.kind()).isEqualTo(OutboundFailure.Kind.REFUSED);
      assertThat(refused.getMessage()).contains("Events: Read");
    } finally {
      vertx.close().await();
    }
  }
}
