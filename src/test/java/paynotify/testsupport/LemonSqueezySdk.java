package paynotify.testsupport;

import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;

/**
 * Lemon Squeezy's official JS SDK ({@code @lemonsqueezy/lemonsqueezy.js}), installed from npm as a site installs it and
 * run by {@code node}: its {@code getOrder} and {@code listOrders} (paging by {@code page[number]} up to
 * {@code meta.page.lastPage}). Its base URL is a constant ({@code API_BASE_URL}, https://api.lemonsqueezy.com) that no
 * option sets, so the script replaces the global {@code fetch} with one that sends what the SDK asks of that host to a
 * stand-in instead, the request otherwise as the SDK made it (its headers, its query).
 */
public final class LemonSqueezySdk {
  private static final Path DIR = Path.of("target", "lemonsqueezy-sdk").toAbsolutePath();
  private static final String PACKAGE = "@lemonsqueezy/lemonsqueezy.js@4.0.0";
  /**
   * Prints "order <id> <status> <store_id> <total> <currency>", "listed" then one order a line
   * ("<id> <status> <created_at>"), or "refused <HTTP status> <the first error's title>".
   */
  private static final String SCRIPT = """
      import { lemonSqueezySetup, getOrder, listOrders } from "@lemonsqueezy/lemonsqueezy.js";
      const [base, key, command, arg, size] = process.argv.slice(2);
      const fetched = globalThis.fetch;
      globalThis.fetch = (url, init) => fetched(String(url).replace("https://api.lemonsqueezy.com", base), init);
      lemonSqueezySetup({ apiKey: key });
      const refused = (statusCode, error) =>
          `refused ${statusCode} ${Array.isArray(error.cause) ? error.cause[0].title : error.message}`;
      if (command === "get") {
        const { statusCode, data, error } = await getOrder(arg);
        const a = data?.data?.attributes;
        console.log(error ? refused(statusCode, error)
            : `order ${data.data.id} ${a.status} ${a.store_id} ${a.total} ${a.currency}`);
      } else {
        const lines = [];
        let number = 1;
        let last = 1;
        let failed = null;
        do {
          const { statusCode, data, error } = await listOrders({ filter: { storeId: arg },
              page: { number, size: Number(size) } });
          if (error) {
            failed = refused(statusCode, error);
            break;
          }
          last = data.meta.page.lastPage;
          for (const o of data.data) {
            lines.push(`${o.id} ${o.attributes.status} ${o.attributes.created_at}`);
          }
          number++;
        } while (number <= last);
        console.log(failed ?? "listed\\n" + lines.join("\\n"));
      }
      """;

  private LemonSqueezySdk() {}

  /** {@code npm install} of the SDK and the script beside it: once per test class, from the npm registry. */
  public static void install() {
    Commands.npmInstall(DIR, PACKAGE, "lemonsqueezy-orders.mjs", SCRIPT);
  }

  /** What the SDK's getOrder reads of order {@code id} at {@code base} with {@code key}: its one line. */
  public static String getOrder(String base, String key, String id) {
    return run(base, key, "get", id, "0");
  }

  /** What the SDK's listOrders reads of the store's orders, {@code size} a page: its output from "listed" on. */
  public static String listOrders(String base, String key, String storeId, int size) {
    return run(base, key, "list", storeId, Integer.toString(size));
  }

  private static String run(String base, String key, String... args) {
    String[] command = new String[4 + args.length];
    command[0] = "node";
    command[1] = DIR.resolve("lemonsqueezy-orders.mjs").toString();
    command[2] = base;
    command[3] = key;
    System.arraycopy(args, 0, command, 4, args.length);
    String out = Commands.run(Duration.ofSeconds(60), command).output();
    return out.substring(Stream.of("order ", "listed", "refused").mapToInt(out::indexOf).filter(at -> at >= 0).min()
        .orElseThrow(() -> new IllegalStateException("the SDK said nothing: " + out))).strip();
  }
}
