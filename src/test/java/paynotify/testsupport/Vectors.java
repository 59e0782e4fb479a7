package paynotify.testsupport;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** The shared test vectors (src/test/resources/vectors, a copy of shared/vectors). */
public final class Vectors {
  private Vectors() {}

  public static JsonObject load(String channel) {
    try (InputStream in = Vectors.class.getResourceAsStream("/vectors/" + channel + ".json")) {
      return new JsonObject(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (IOException | NullPointerException e) {
      throw new IllegalStateException("vectors for " + channel + " not found", e);
    }
  }

  public static List<JsonObject> cases(JsonObject file) {
    JsonArray cases = file.getJsonArray("cases");
    return cases.stream().map(JsonObject.class::cast).toList();
  }
}
