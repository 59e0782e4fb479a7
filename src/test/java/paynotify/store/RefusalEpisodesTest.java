package paynotify.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Vertx;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import paynotify.server.Pools;
import paynotify.testsupport.DatabaseTestBase;

/** An ended time the database refused writes, written in UTC and read back as it was, by when it ended. */
class RefusalEpisodesTest extends DatabaseTestBase {
  private static Vertx vertx;
  private static Database pool;

  @BeforeAll
  static void connect() {
    vertx = Vertx.vertx();
    pool = Pools.connect(vertx, db.settings());
  }

  @AfterAll
  static void close() {
    pool.close().await();
    vertx.close().await();
  }

  @Test
  void anEpisodeIsReadBackAsItWasWrittenNewestFirstAndOnlyThoseEndedSince() {
    Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
    RefusalEpisode old = new RefusalEpisode("read-only (1290)", now.minus(Duration.ofDays(2)),
        now.minus(Duration.ofDays(2)).plusSeconds(30), 3, Map.of("alipay", 3L));
    RefusalEpisode earlier = new RefusalEpisode("too many connections (1040)", now.minusSeconds(3600),
        now.minusSeconds(3500), 1, Map.of("vmq", 1L));
    RefusalEpisode last = new RefusalEpisode("disk full (1114)", now.minusSeconds(60),
        now.minusSeconds(21).plusMillis(7), 37, Map.of("alipay", 30L, "epusdt", 7L));
    RefusalEpisodes episodes = new RefusalEpisodes(vertx, pool);
    episodes.record(old).await();
    episodes.record(last).await();
    episodes.record(earlier).await();

    assertThat(episodes.endedSince(now.minus(Duration.ofDays(1))).await()).containsExactly(last, earlier);
    // UTC, one clock for every instance, whatever the sessions' zone (Beijing here)
    assertThat(db.string("SELECT DATE_FORMAT(started_at, '%Y-%m-%dT%H:%i:%s.%fZ') FROM write_refusals"
        + " WHERE refused = 37"))
        .isEqualTo(last.since().toString().replace("Z", "000Z"));
  }
}
