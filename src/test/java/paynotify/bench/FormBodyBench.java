package paynotify.bench;

import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import paynotify.channel.FormBody;
import paynotify.channel.NotifyChannel;
import paynotify.channel.NotifyRequest;
import paynotify.channel.RejectedNotification;
import paynotify.config.AppConfig;
import paynotify.testsupport.HostileBodies;
import paynotify.testsupport.SyncCheck;
import paynotify.testsupport.TestService;

/**
 * What refusing a hostile form body costs the event loop, as anyone may send it before a signature
 * is checked: FormBody.decode alone, and the whole of Alipay's and epay's verify (decode, checks, the
 * signature). Each shape of {@link HostileBodies} at each size, median and worst of {@link #TIMED} runs
 * after {@link #WARM_UP}. Run by scripts/bench-form.sh, which can put another revision's FormBody first
 * on the class path to compare. Not a test: one JVM, wall-clock times.
 */
public final class FormBodyBench {
  private static final int WARM_UP = 50;
  private static final int TIMED = 200;

  private FormBodyBench() {}

  /** Arguments: body sizes in bytes (default 65536 1048576). */
  public static void main(String[] args) throws Exception {
    String[] sizes = args.length > 0 ? args : new String[] {"65536", "1048576"};
    Map<String, NotifyChannel> channels = new java.util.HashMap<>();
    AppConfig.from(TestService.configuration(new JsonObject()), "bench", Map.of()).channels().enabled()
        .forEach(c -> channels.put(c.endpoint(), c));
    System.out.printf("ms to refuse (median / worst of %d after %d warm-up): decode | alipay verify | epay verify%n",
        TIMED, WARM_UP);
    for (String size : sizes) {
      for (Map.Entry<String, byte[]> shape : HostileBodies.shapes(Integer.parseInt(size)).entrySet()) {
        byte[] body = shape.getValue();
        System.out.printf("%8d bytes, %-21s %s | %s | %s  (%s)%n", body.length, shape.getKey(),
            time(() -> FormBody.decode(body, StandardCharsets.UTF_8)),
            time(() -> SyncCheck.event(channels.get("alipay"), request(body))),
            time(() -> SyncCheck.event(channels.get("epay"), request(body))), outcome(body));
      }
    }
    System.exit(0); // the configuration's stand-in PayPal verifier would keep the JVM up
  }

  private interface Work {
    Object run() throws RejectedNotification;
  }

  private static String time(Work work) {
    long[] nanos = new long[TIMED];
    for (int run = -WARM_UP; run < TIMED; run++) {
      long start = System.nanoTime();
      try {
        work.run();
      } catch (RejectedNotification | RuntimeException refused) {
        // what is timed: the refusal
      }
      if (run >= 0) {
        nanos[run] = System.nanoTime() - start;
      }
    }
    Arrays.sort(nanos);
    return String.format("%7.3f / %7.3f", nanos[TIMED / 2] / 1e6, nanos[TIMED - 1] / 1e6);
  }

  private static String outcome(byte[] body) {
    try {
      return "decoded, " + FormBody.decode(body, StandardCharsets.UTF_8).size() + " params";
    } catch (RejectedNotification e) {
      return "decode refused: " + e.getMessage();
    }
  }

  private static NotifyRequest request(byte[] body) {
    return new NotifyRequest("POST", MultiMap.caseInsensitiveMultiMap()
        .add("Content-Type", "application/x-www-form-urlencoded"), null, Buffer.buffer(body));
  }
}
