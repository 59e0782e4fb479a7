package paynotify.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Future;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import paynotify.config.AppConfig.DatabaseSettings;
import paynotify.server.Pools;
import paynotify.testsupport.PooledDatabaseTestBase;

/** An ended time the database refused writes, written in UTC and read back as it was, by when it ended. */
class RefusalEpisodesTest extends PooledDatabaseTestBase {
  /** DATE_FORMAT's %f: always six digits (Instant.toString drops a fraction of .000). */
  private static final DateTimeFormatter MICROS_UTC =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'").withZone(ZoneOffset.UTC);

  @Test
  void anEpisodeIsReadBackAsItWasWrittenNewestFirstAndOnlyThoseEndedSince() {
    Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
    RefusalEpisode old = new RefusalEpisode("read-only (1290)", now.minus(Duration.ofDays(2)),
        now.minus(Duration.ofDays(2)).plusSeconds(30), 3, Map.of("alipay", 3L));
    RefusalEpisode earlier = new RefusalEpisode("too many connections (1040)", now.minusSeconds(3600),
        now.minusSeconds(3500), 1, Map.of("vmq", 1L));
    RefusalEpisode last = new RefusalEpisode("disk full (1114)", now.minusSeconds(60),
        now.minusSeconds(21).plusMillis(7), 37, Map.of("alipay", 30L, "epusdt", 7L), List.of("EP-7", "EP-3"));
    RefusalEpisodes episodes = new RefusalEpisodes(vertx, pool);
    episodes.record(old).await();
    episodes.record(last).await();
    episodes.record(earlier).await();

    assertThat(episodes.endedSince(now.minus(Duration.ofDays(1))).await()).containsExactly(last, earlier);
    // UTC, one clock for every instance, whatever the sessions' zone (Beijing here)
    assertThat(db.string("SELECT DATE_FORMAT(started_at, '%Y-%m-%dT%H:%i:%s.%fZ') FROM write_refusals"
        + " WHERE refused = 37"))
        .isEqualTo(MICROS_UTC.format(last.since()));
    // the lost orders as data (JSON), none as '[]'
    assertThat(db.string("SELECT lost_orders FROM write_refusals WHERE refused = 1")).isEqualTo("[]");
  }

  /**
   * Right after an outage the database may still refuse, or keep the write waiting: a write that fails so is tried
   * again a while later. Here a lock another transaction holds (every insert into the table waits on it) runs the
   * first tries out of time (1205, a second each), then goes.
   */
  @Test
  void aWriteThatFailsForAWhileIsTriedAgainUntilTheDatabaseTakesIt() throws Exception {
    DatabaseSettings s = db.settings();
    Database waiting = Pools.connect(vertx, new DatabaseSettings(s.host(), s.port(), s.name(), s.user(),
        s.password(), 2, 16, Duration.ofSeconds(5), 1, null));
    RefusalEpisode episode = new RefusalEpisode("disk full (1114)", Instant.now().minusSeconds(60),
        Instant.now().minusSeconds(30), 2, Map.of("epusdt", 2L));
    try (Connection holder = db.connect()) {
      holder.setAutoCommit(false);
      holder.createStatement().executeQuery("SELECT * FROM write_refusals FOR UPDATE"); // the table's whole range
      Future<Void> written = new RefusalEpisodes(vertx, waiting, Duration.ofMillis(200)).record(episode);
      Thread.sleep(3000); // two tries out of time
      assertThat(db.count("SELECT COUNT(*) FROM write_refusals")).isZero();
      holder.rollback();
      written.await();
      assertThat(db.count("SELECT COUNT(*) FROM write_refusals WHERE refused = 2")).isEqualTo(1);
    } finally {
      waiting.close().await();
    }
  }
}
