package paynotify.booking;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.NetClientOptions;
import io.vertx.mysqlclient.MySQLConnectOptions;
import io.vertx.sqlclient.PoolOptions;
import java.net.ServerSocket;
import java.time.LocalDateTime;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import paynotify.channel.EventKind;
import paynotify.channel.NotifyEvent;
import paynotify.channel.Platform;
import paynotify.config.AppConfig;
import paynotify.store.CommittedReads;
import paynotify.store.Database;
import paynotify.store.NotifyLog;
import paynotify.store.RejectedLog;
import paynotify.store.Stores;
import paynotify.testsupport.DatabaseTestBase;
import paynotify.testsupport.TestService;

/**
 * S4: when the duplicate pre-check cannot answer (its pool's queue full, a timeout, the database
 * gone), a repeat of a key this process saw committed is answered 503 at once, without a booking
 * connection (a replay flood of a genuine message took them all); a first delivery is still booked.
 */
class PrecheckUnavailableTest extends DatabaseTestBase {
  private Vertx vertx;
  private Stores stores;
  private EventBooking booking;

  @BeforeEach
  void bookingWithADeadPrecheck() throws Exception {
    int closedPort;
    try (ServerSocket s = new ServerSocket(0)) {
      closedPort = s.getLocalPort();
    }
    vertx = Vertx.vertx();
    var s = db.settings();
    MySQLConnectOptions connect = new MySQLConnectOptions().setHost(s.host()).setPort(s.port())
        .setDatabase(s.name()).setUser(s.user()).setPassword(s.password()).setUseAffectedRows(true);
    // One booking connection, so that the test can hold it; waiting for it times out after 3 s.
    Database bookingPool = Database.connect(vertx, connect, new PoolOptions().setMaxSize(1).setConnectionTimeout(3)
        .setConnectionTimeoutUnit(TimeUnit.SECONDS), new NetClientOptions(), Database.sessionSetup(5, Database.BEIJING));
    CommittedReads nowhere = CommittedReads.connect(vertx, new MySQLConnectOptions().setHost("127.0.0.1")
        .setPort(closedPort), new PoolOptions().setMaxSize(1), new NetClientOptions().setConnectTimeout(500),
        CommittedReads.sessionSetup(Database.BEIJING));
    Database logPool = Database.connect(vertx, connect, new PoolOptions().setMaxSize(1), new NetClientOptions(),
        Database.sessionSetup(5, Database.BEIJING));
    stores = new Stores(bookingPool, nowhere,
        new NotifyLog(vertx, logPool, "notification(s)", 100, NotifyLog.MAX_QUEUED_BYTES, NotifyLog.REPORT_PERIOD),
        new RejectedLog(vertx, logPool, 100, 10, NotifyLog.REPORT_PERIOD), logPool,
        Database.connect(vertx, connect, new PoolOptions().setMaxSize(1), new NetClientOptions(),
            Database.sessionSetup(5, Database.BEIJING)));
    AppConfig config = AppConfig.from(TestService.configuration(new JsonObject()), "test", Map.of());
    booking = new EventBooking(vertx, stores, config.booking(), config.orders(), SiteEvents.OFF);
  }

  @AfterEach
  void close() {
    stores.close().eventually(vertx::close).await();
  }

  @Test
  void repeatIsAnsweredAtOnceAndFirstDeliveriesAreStillBooked() throws Exception {
    db.insertOrder("PC1", 100);
    db.insertOrder("PC2", 100);
    assertThat(book(payment("PC1", "T-PC1")).await().outcome()).isEqualTo(Outcome.PROCESSED);

    Promise<Void> held = Promise.promise();
    Future<Void> holding = stores.db().inTransaction(conn -> held.future()); // the only booking connection
    try {
      Future<BookingResult> repeat = book(payment("PC1", "T-PC1"));
      assertThat(repeat.transform(Future::succeededFuture).await(10, TimeUnit.SECONDS).cause())
          .hasMessageContaining("is booked already");
      assertThat(holding.isComplete()).isFalse(); // answered while the booking pool was still taken
    } finally {
      held.complete();
    }
    holding.await();
    assertThat(book(payment("PC2", "T-PC2")).await().outcome()).isEqualTo(Outcome.PROCESSED);
    assertThat(db.count("SELECT COUNT(*) FROM payments")).isEqualTo(2);
    assertThat(db.orderStatus("PC2")).isEqualTo("paid");
  }

  private Future<BookingResult> book(NotifyEvent event) {
    return booking.book(event);
  }

  private static NotifyEvent payment(String orderNo, String tradeNo) {
    return new NotifyEvent(Platform.ALIPAY, EventKind.PAYMENT, orderNo, tradeNo, 100, LocalDateTime.now(), "TRADE_SUCCESS");
  }
}
