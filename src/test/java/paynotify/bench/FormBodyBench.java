package paynotify.bench;

import java.nio.charset.StandardCharsets;
import paynotify.channel.FormBody;
import paynotify.testsupport.HostileBodies;

/**
 * How long FormBody.decode takes on the body that costs it most (distinct names, no '='), as anyone
 * may send it before a signature is checked. Run by scripts/bench-form.sh, which can put another
 * revision's FormBody first on the class path to compare. Not a test: one JVM, wall-clock times.
 */
public final class FormBodyBench {
  private FormBodyBench() {}

  /** Arguments: body sizes in bytes (default 65536 1048576); each size decoded 3 times. */
  public static void main(String[] args) throws Exception {
    String[] sizes = args.length > 0 ? args : new String[] {"65536", "1048576"};
    for (String size : sizes) {
      byte[] body = HostileBodies.namesWithoutValues(Integer.parseInt(size));
      StringBuilder runs = new StringBuilder();
      int params = 0;
      for (int run = 0; run < 3; run++) {
        long start = System.nanoTime();
        params = FormBody.decode(body, StandardCharsets.UTF_8).size();
        runs.append(String.format(" %.1f", (System.nanoTime() - start) / 1e6));
      }
      System.out.printf("%8d bytes, %6d names: ms per decode:%s%n", body.length, params, runs);
    }
  }
}
