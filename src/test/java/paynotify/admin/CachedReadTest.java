package paynotify.admin;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What /status and the gauges ask the database for: one read however many requests come. */
class CachedReadTest {
  private final List<Promise<String>> reads = new ArrayList<>();

  private Future<String> read() {
    Promise<String> read = Promise.promise();
    reads.add(read);
    return read.future();
  }

  @Test
  void requestsWhileAReadRunsWaitForThatRead() {
    CachedRead<String> cached = new CachedRead<>(60_000, this::read);
    List<Future<String>> answers = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      answers.add(cached.get());
    }
    assertThat(reads).hasSize(1);
    reads.get(0).complete("report");
    assertThat(answers).allMatch(a -> "report".equals(a.result()));
    assertThat(cached.get().result()).isEqualTo("report");
    assertThat(reads).as("fresh: not read again").hasSize(1);
  }

  @Test
  void aFailedReadIsNotKept() {
    CachedRead<String> cached = new CachedRead<>(60_000, this::read);
    Future<String> first = cached.get();
    reads.get(0).fail("database down");
    assertThat(first.failed()).isTrue();
    cached.get();
    assertThat(reads).hasSize(2);
  }

  @Test
  void aStaleResultIsReadAgain() throws Exception {
    CachedRead<String> cached = new CachedRead<>(50, this::read);
    cached.get();
    reads.get(0).complete("old");
    Thread.sleep(80);
    Future<String> next = cached.get();
    assertThat(reads).hasSize(2);
    reads.get(1).complete("new");
    assertThat(next.result()).isEqualTo("new");
  }

  // A read the database never answers must not hold every later request, after the database is back.
  @Test
  void aReadThatNeverEndsIsGivenUpAndReadAgain() throws Exception {
    CachedRead<String> cached = new CachedRead<>(20, this::read);
    Future<String> stuck = cached.get();
    Thread.sleep(20 * CachedRead.STUCK_AFTER_TTLS + 50);
    Future<String> next = cached.get();
    assertThat(reads).hasSize(2);
    assertThat(stuck.failed()).as("the stuck read's waiters are told").isTrue();
    reads.get(1).complete("report");
    assertThat(next.result()).isEqualTo("report");
  }
}
