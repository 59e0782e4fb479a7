package paynotify.testsupport;

import java.nio.file.Path;
import java.time.Duration;

/**
 * Paddle's official node SDK ({@code @paddle/paddle-node-sdk}), installed from npm as a site installs it and run by
 * {@code node}: its {@code notifications.list()}, pointed at a stand-in by its {@code environment} option (the SDK
 * takes any other value than production or sandbox as the base URL), pages through what the stand-in answers
 * (following {@code meta.pagination.next}) and reads each notification and its event as Paddle's.
 */
public final class PaddleSdk {
  private static final Path DIR = Path.of("target", "paddle-sdk").toAbsolutePath();
  private static final String PACKAGE = "@paddle/paddle-node-sdk@3.8.0";
  /** Prints "listed <one notification a line: id status event_type event_id data.id>" or "refused <code>". */
  private static final String SCRIPT = """
      import { Paddle } from "@paddle/paddle-node-sdk";
      const [base, key, destination, perPage] = process.argv.slice(2);
      const paddle = new Paddle(key, { environment: base });
      try {
        const lines = [];
        const list = paddle.notifications.list({ notificationSettingId: [destination],
            status: ["failed", "needs_retry", "not_attempted"], perPage: Number(perPage) });
        for await (const n of list) {
          lines.push(`${n.id} ${n.status} ${n.payload.eventType} ${n.payload.eventId} ${n.payload.data.id}`);
        }
        console.log("listed\\n" + lines.join("\\n"));
      } catch (e) {
        console.log("refused " + (e.code ?? e.message));
      }
      """;

  private PaddleSdk() {}

  /** {@code npm install} of the SDK and the script beside it: once per test class, from the npm registry. */
  public static void install() {
    Commands.npmInstall(DIR, PACKAGE, "paddle-notifications.mjs", SCRIPT);
  }

  /** What the SDK lists from {@code base} with {@code key}, {@code perPage} a page: its output from "listed" on. */
  public static String list(String base, String key, String destination, int perPage) {
    Commands.Run node = Commands.run(Duration.ofSeconds(60), "node", DIR.resolve("paddle-notifications.mjs")
        .toString(), base, key, destination, Integer.toString(perPage));
    String out = node.output();
    int at = Math.max(out.indexOf("listed"), out.indexOf("refused"));
    if (at < 0) {
      throw new IllegalStateException("the SDK said nothing: " + out);
    }
    return out.substring(at).strip();
  }
}
