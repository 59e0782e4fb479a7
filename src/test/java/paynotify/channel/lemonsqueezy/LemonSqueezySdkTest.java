package paynotify.channel.lemonsqueezy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.vertx.core.Vertx;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import paynotify.channel.Outbound;
import paynotify.channel.TradeAnswer;
import paynotify.channel.TradeQuery;
import paynotify.net.OutboundFailure;
import paynotify.net.OutboundHttp;
import paynotify.testsupport.LemonSqueezyApiStandIn;
import paynotify.testsupport.LemonSqueezyNotifications;
import paynotify.testsupport.LemonSqueezySdk;
import paynotify.testsupport.NodeReceiver;

/**
 * The stand-in answers as Lemon Squeezy's API does: its official JS SDK, its global fetch sent to the stand-in (the
 * SDK's base URL cannot be set), reads an Order with getOrder, pages through the store's orders with listOrders, and
 * says 404 and 401 as it says Lemon Squeezy's; and paynotify's clients read the same Orders.
 */
class LemonSqueezySdkTest {
  static final String STORE = Long.toString(LemonSqueezyNotifications.STORE_ID);

  LemonSqueezyApiStandIn api = LemonSqueezyApiStandIn.start();

  @BeforeAll
  static void install() {
    assumeTrue(NodeReceiver.available(), "node and npm are not installed: Lemon Squeezy's SDK is not run");
    LemonSqueezySdk.install();
  }

  @AfterEach
  void stop() {
    api.close();
  }

  /** Orders 100 to 104 of the store, made 500 to 100 seconds ago, and one of another store made after them. */
  void orders() {
    for (int i = 0; i < 5; i++) {
      api.add(LemonSqueezyNotifications.order(Integer.toString(100 + i), 1000 + i, "USD"),
          LemonSqueezyNotifications.STORE_ID, i == 2 ? "refunded" : "paid", 500 - 100 * i);
    }
    api.add(LemonSqueezyNotifications.order("900", 700, "USD"), LemonSqueezyNotifications.OTHER_STORE_ID, "paid", 50);
  }

  @Test
  void theSdkReadsTheStandInsOrders() {
    orders();
    String base = api.url().toString();

    assertThat(LemonSqueezySdk.getOrder(base, LemonSqueezyApiStandIn.KEY, "103"))
        .isEqualTo("order 103 paid " + STORE + " 1003 USD");
    assertThat(LemonSqueezySdk.getOrder(base, LemonSqueezyApiStandIn.KEY, "555")).isEqualTo("refused 404 Not Found");
    assertThat(LemonSqueezySdk.getOrder(base, "wrong-key", "103")).isEqualTo("refused 401 Unauthorized");

    String listed = LemonSqueezySdk.listOrders(base, LemonSqueezyApiStandIn.KEY, STORE, 2);
    List<String> lines = listed.lines().skip(1).toList();
    assertThat(listed).startsWith("listed");
    assertThat(lines).extracting(l -> l.substring(0, l.lastIndexOf(' ')))
        .containsExactly("104 paid", "103 paid", "102 refunded", "101 paid", "100 paid");
    // the SDK sends an empty include beside the filter and the page
    assertThat(api.requests()).endsWith(
        "/v1/orders?filter[store_id]=" + STORE + "&page[number]=1&page[size]=2&include=",
        "/v1/orders?filter[store_id]=" + STORE + "&page[number]=2&page[size]=2&include=",
        "/v1/orders?filter[store_id]=" + STORE + "&page[number]=3&page[size]=2&include=");
    assertThat(api.accepts()).containsOnly("application/vnd.api+json");
  }

  @Test
  void ourClientsReadWhatTheSdkReads() {
    orders();
    Vertx vertx = Vertx.vertx();
    try {
      OutboundHttp http = new OutboundHttp(vertx, Duration.ofSeconds(5), 64 * 1024);
      LemonSqueezyChannel channel = new LemonSqueezyChannel(LemonSqueezyNotifications.SECRET, STORE, "USD", false);
      LemonSqueezyClients clients = new LemonSqueezyClients(api.url(), LemonSqueezyApiStandIn.KEY, STORE, channel);
      TradeQuery.ById query = (TradeQuery.ById) clients.query().apply(http);

      TradeAnswer paid = query.query("S1", LemonSqueezyNotifications.platformRef("103")).await();
      assertThat(paid.state()).isEqualTo(TradeAnswer.State.PAID);
      assertThat(paid.payment().orderNo()).isEqualTo("S1");
      assertThat(paid.payment().tradeNo()).isEqualTo("103");
      assertThat(paid.payment().amountCents()).isEqualTo(1003);
      assertThat(new String(paid.body(), StandardCharsets.UTF_8)).contains("\"order_number\":1")
          .doesNotContain("johndoe@example.com", "John Doe", "signature=");
      assertThat(query.query("S1", LemonSqueezyNotifications.platformRef("102")).await().state())
          .isEqualTo(TradeAnswer.State.REFUNDED);
      assertThat(query.query("S1", LemonSqueezyNotifications.platformRef("555")).await().state())
          .isEqualTo(TradeAnswer.State.NOT_FOUND);
      OutboundFailure another = (OutboundFailure) catchThrowable(() -> query.query("S1",
          LemonSqueezyNotifications.platformRef("900")).await());
      assertThat(another.kind()).isEqualTo(OutboundFailure.Kind.UNTRUSTED);
      assertThat(another.getMessage()).contains("store_id '" + LemonSqueezyNotifications.OTHER_STORE_ID + "'");
      // the id of order 103 with another Order's identifier: asked, and the answer is about another order
      OutboundFailure guessed = (OutboundFailure) catchThrowable(() -> query.query("S1",
          "103:" + LemonSqueezyNotifications.identifier("104")).await());
      assertThat(guessed.kind()).isEqualTo(OutboundFailure.Kind.UNTRUSTED);
      assertThat(guessed.getMessage()).contains("answered about another order");
      // only <digits>:<UUID> is asked about: a bare id proves nothing
      assertThat(query.isOwnId(LemonSqueezyNotifications.platformRef("103"))).isTrue();
      assertThat(query.isOwnId("103")).isFalse();
      assertThat(query.isOwnId("103:" + LemonSqueezyNotifications.identifier("103").substring(1))).isFalse();
      assertThat(query.isOwnId("ch_" + LemonSqueezyNotifications.identifier("103"))).isFalse();
      assertThat(query.isOwnId(":" + LemonSqueezyNotifications.identifier("103"))).isFalse();

      Outbound.Undelivered list = clients.undelivered().apply(http);
      long now = Instant.now().getEpochSecond();
      Outbound.Page page = list.page(now - 3600, now + 1, null).await();
      assertThat(page.events()).extracting(Outbound.Missed::id).containsExactly("104", "103", "102", "101", "100");
      assertThat(page.hasMore()).isFalse();
      assertThat(page.events().get(0).event().encode()).doesNotContain("johndoe@example.com", "John Doe", "signature=");

      OutboundFailure refused = (OutboundFailure) catchThrowable(() -> new LemonSqueezyClients(api.url(), "wrong-key",
          STORE, channel).query().apply(http).query("S1", LemonSqueezyNotifications.platformRef("103")).await());
      assertThat(refused.kind()).isEqualTo(OutboundFailure.Kind.REFUSED);
      assertThat(refused.getMessage()).startsWith(query.name() + ": HTTP 401 Unauthorized Unauthenticated.")
          .contains("lemonsqueezy.api_key_file");
      OutboundFailure listRefused = (OutboundFailure) catchThrowable(() -> new LemonSqueezyClients(api.url(),
          "wrong-key", STORE, channel).undelivered().apply(http).page(now - 3600, now + 1, null).await());
      assertThat(listRefused.getMessage()).startsWith(list.source() + ": HTTP 401 Unauthorized");
    } finally {
      vertx.close().await();
    }
  }
}
