package paynotify.testsupport;

import java.nio.file.Path;
import java.time.Duration;

/**
 * Creem's official core SDK ({@code creem}, the package its docs name official and {@code creem_io}'s deprecation
 * points to; generated from Creem's OpenAPI), installed from npm as a site installs it and run by {@code node}: its
 * {@code checkouts.retrieve} and {@code transactions.search}, pointed at a stand-in by its {@code serverURL} option,
 * read what the stand-in answers through the SDK's schemas (an answer of another shape is its
 * ResponseValidationError).
 */
public final class CreemCoreSdk {
  private static final Path DIR = Path.of("target", "creem-core-sdk").toAbsolutePath();
  /** The version of packages/creem-sdk at the monorepo's commit docs/channels.md names. */
  private static final String PACKAGE = "creem@1.4.4";
  /**
   * Prints "retrieved <id mode status requestId order.id order.status order.amountPaid order.currency>", then, where
   * the checkout has an order, one line a transaction of it ("transaction <id status order>"); or "refused <HTTP
   * status> <body>" (Creem's error: an APIError), or "failed <name>: <message>" (anything else: an answer that breaks
   * the SDK's schema is a ResponseValidationError).
   */
  private static final String SCRIPT = """
      import { Creem } from "creem";
      const [base, key, checkoutId] = process.argv.slice(2);
      const creem = new Creem({ apiKey: key, serverURL: base });
      try {
        const c = await creem.checkouts.retrieve(checkoutId);
        const o = c.order;
        const lines = [`retrieved ${c.id} ${c.mode} ${c.status} ${c.requestId} ${o?.id} ${o?.status}`
            + ` ${o?.amountPaid} ${o?.currency}`];
        if (o) {
          const list = await creem.transactions.search(undefined, o.id);
          for (const t of list.items) lines.push(`transaction ${t.id} ${t.status} ${t.order}`);
        }
        console.log(lines.join("\\n"));
      } catch (e) {
        console.log(e.name === "APIError" ? `refused ${e.statusCode} ${e.body}` : `failed ${e.name}: ${e.message}`);
      }
      """;

  private CreemCoreSdk() {}

  /** {@code npm install} of the SDK and the script beside it: once per test class, from the npm registry. */
  public static void install() {
    Commands.npmInstall(DIR, PACKAGE, "creem-retrieve.mjs", SCRIPT);
  }

  /** What the SDK reads of checkout {@code checkoutId} at {@code base} with {@code key}: its output, verdict first. */
  public static String retrieve(String base, String key, String checkoutId) {
    Commands.Run node = Commands.run(Duration.ofSeconds(60), "node", DIR.resolve("creem-retrieve.mjs").toString(),
        base, key, checkoutId);
    String out = node.output();
    int at = out.length();
    for (String word : new String[] {"retrieved ", "refused ", "failed "}) {
      at = out.contains(word) ? Math.min(at, out.indexOf(word)) : at;
    }
    if (at == out.length()) {
      throw new IllegalStateException("the SDK said nothing: " + out);
    }
    return out.substring(at).strip();
  }
}
