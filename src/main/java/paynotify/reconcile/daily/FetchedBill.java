package paynotify.reconcile.daily;

import io.vertx.core.Vertx;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.function.Function;
import paynotify.channel.BillSource;
import paynotify.channel.DayBill;
import paynotify.channel.Platform;
import paynotify.net.OutboundHttp;
import paynotify.reconcile.BillArchive;

/**
 * {@code reconcile --fetch}: a day's bill asked of the platform and kept in the bill archive, then read from
 * there exactly as {@code --bill} reads a downloaded file.
 *
 * @param file the kept file; null when the platform said the day had no trades
 */
record FetchedBill(Path file, LocalDate day) {
  /**
   * A day's bill is a few MiB for a busy small shop; more than this is refused rather than held in memory
   * (the tools run in a 128 MiB heap: the answer, its copy and the unpacked bill must fit together).
   */
  private static final int MAX_BILL_BYTES = 16 * 1024 * 1024;
  private static final Duration TIMEOUT = Duration.ofMinutes(2);

  /** Fetches {@code day}'s bill from {@code source} and keeps it in {@code archive} as {@code platform}'s. */
  static FetchedBill fetch(Function<OutboundHttp, BillSource> source, BillArchive archive, Platform platform,
      LocalDate day) throws IOException {
    Vertx vertx = Vertx.vertx();
    try {
      DayBill bill = source.apply(new OutboundHttp(vertx, TIMEOUT, MAX_BILL_BYTES)).fetch(day).await();
      if (!bill.hasTrades()) {
        return new FetchedBill(null, day);
      }
      return new FetchedBill(archive.keep(platform.code(), day, bill.fileName(), bill.content()), day);
    } finally {
      vertx.close().await();
    }
  }
}
