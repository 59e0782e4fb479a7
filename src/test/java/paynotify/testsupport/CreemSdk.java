package paynotify.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Creem's official TypeScript SDK ({@code creem_io}, the package whose {@code resources/webhooks.ts} the channel
 * follows), installed from npm as a site installs it and run by {@code node}: its {@code webhooks.handleEvents}
 * is asked whether it accepts a body under a signature.
 */
public final class CreemSdk {
  private static final Path DIR = Path.of("target", "creem-sdk").toAbsolutePath();
  private static final String PACKAGE = "creem_io@1.1.0";
  /** Prints "accepted <eventType> <what its handler saw>" or "rejected <the SDK's message>". */
  private static final String SCRIPT = """
      import { readFileSync } from "node:fs";
      import { createCreem } from "creem_io";
      const [secret, bodyFile, signature] = process.argv.slice(2);
      const creem = createCreem({ apiKey: "unused", webhookSecret: secret });
      let seen = "(no handler)";
      try {
        await creem.webhooks.handleEvents(readFileSync(bodyFile), signature, {
          onCheckoutCompleted: async (e) => { seen = `checkout.completed ${e.requestId} ${e.order?.amountPaid}`; },
          onRefundCreated: async (e) => { seen = `refund.created ${e.id} ${e.refundAmount}`; },
        });
        console.log("accepted " + seen);
      } catch (e) {
        console.log("rejected " + e.message);
      }
      """;

  private CreemSdk() {}

  /** {@code npm install} of the SDK and the script beside it: once per test class, from the npm registry. */
  public static void install() {
    Commands.npmInstall(DIR, PACKAGE, "creem-verify.mjs", SCRIPT);
  }

  /** What the SDK says of {@code body} under {@code signature} with {@code secret}: its one line. */
  public static String verdict(String secret, byte[] body, String signature) {
    try {
      Path file = Files.createTempFile(DIR, "body-", ".json");
      Files.write(file, body);
      Commands.Run node = Commands.run(Duration.ofSeconds(30), "node", DIR.resolve("creem-verify.mjs").toString(),
          secret, file.toString(), signature);
      Files.delete(file);
      return node.output().lines().filter(l -> l.startsWith("accepted ") || l.startsWith("rejected ")).findFirst()
          .orElseThrow(() -> new IllegalStateException("the SDK said nothing: " + node.output()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
