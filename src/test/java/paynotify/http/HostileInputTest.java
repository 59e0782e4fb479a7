package paynotify.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import paynotify.channel.wechat.WechatV3Signature;
import paynotify.testsupport.HostileBodies;
import paynotify.testsupport.Http.Reply;
import paynotify.testsupport.Notification;
import paynotify.testsupport.RawRequest;
import paynotify.testsupport.ServiceTestBase;
import paynotify.testsupport.TestService;

/**
 * Garbage, truncated and mangled requests on every endpoint: each gets a 4xx and the channel's
 * failure words, never a 5xx or a booking (a 5xx would make the platform retry garbage forever).
 */
class HostileInputTest extends ServiceTestBase {
  private static final String[] FRAGMENTS = {"<xml>", "</xml>", "<![CDATA[", "]]>", "&", "=", "%", "%zz", "%E4%B8",
      "sign=", "sign_type=RSA2", "trade_no=", "{", "}", "\"resource\":", "[", "]", ":", ",", "\u0000", "中文", "\uFFFF",
      "<!DOCTYPE x>", "total_fee", "out_trade_no=A1", "money=1e9", "charset=gbk", " ", "\n", "null", "true", "1.005"};

  @Test
  void randomBodiesAreRefusedWithoutA5xx() {
    Random random = new Random(20261130);
    Map<String, String> contentTypes = Map.of(
        "/notify/alipay", "application/x-www-form-urlencoded",
        "/notify/wechat/v2", "text/xml",
        "/notify/wechat/v3", "application/json",
        "/notify/epay", "application/x-www-form-urlencoded",
        "/notify/stripe", "application/json");
    for (int i = 0; i < 150; i++) {
      StringBuilder body = new StringBuilder();
      for (int f = random.nextInt(12); f >= 0; f--) {
        body.append(FRAGMENTS[random.nextInt(FRAGMENTS.length)]);
      }
      for (Map.Entry<String, String> endpoint : contentTypes.entrySet()) {
        Notification n = new Notification("POST", endpoint.getKey(),
            Map.of("Content-Type", endpoint.getValue(), WechatV3Signature.TIMESTAMP_HEADER, "1",
                WechatV3Signature.NONCE_HEADER, "n", WechatV3Signature.SIGNATURE_HEADER, "c2ln",
                WechatV3Signature.SERIAL_HEADER, "PUB_KEY_ID_0119000123452026112900118800000000"),
            body.toString().getBytes(StandardCharsets.UTF_8), null);
        Reply reply = service.send(n);
        assertThat(reply.status()).as(endpoint.getKey() + " <- " + body).isBetween(400, 499);
      }
    }
    assertThat(db.count("SELECT COUNT(*) FROM payments")).isZero();
    service.awaitLogRecorded();
    assertThat(db.count("SELECT COUNT(*) FROM notify_log WHERE outcome = 'rejected'")).isEqualTo(750);
  }

  /**
   * What anyone can send before a signature is checked, at the largest allowed body (1 MiB): a
   * form of distinct names without '=' (Alipay, epay) and XML of distinct elements (WeChat v2).
   * Each is parsed in one pass and refused within the bound (the form took 13 s of event loop).
   */
  @Test
  void megabyteOfDistinctNamesIsRefusedQuickly() {
    int size = 1024 * 1024;
    StringBuilder names = new StringBuilder();
    StringBuilder elements = new StringBuilder("<xml>");
    for (int i = 0; names.length() < size - 16; i++) {
      names.append('n').append(i).append('&');
      elements.append("<n").append(i).append("/>");
    }
    elements.setLength(size - 16);
    elements.setLength(elements.lastIndexOf("<"));
    String xml = elements.append("</xml>").toString();
    Map<String, Notification> hostile = Map.of(
        "alipay", Notification.post("/notify/alipay", "application/x-www-form-urlencoded", names.toString()),
        "epay", Notification.post("/notify/epay", "application/x-www-form-urlencoded", names.toString()),
        "wechat_v2", Notification.post("/notify/wechat/v2", "text/xml", xml));
    try (TestService large = TestService.start(db.settings(),
        new JsonObject().put("http", new JsonObject().put("max_body_bytes", size)))) {
      hostile.forEach((endpoint, n) -> {
        large.send(n); // once to warm up the parsers, as a flood would
        long start = System.nanoTime();
        Reply reply = large.send(n);
        assertThat(reply.status()).as(endpoint).isBetween(400, 499);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).as(endpoint).isLessThan(Duration.ofSeconds(2));
      });
    }
    assertThat(db.count("SELECT COUNT(*) FROM payments")).isZero();
  }

  /**
   * S4: platforms send a few KiB, so http.max_body_bytes is 16 KiB by default; a larger body is
   * refused (413) before any byte is decoded. A form of more parameters than any platform sends is
   * refused as malformed before the full decode.
   */
  @Test
  void largeBodiesAndFormsOfTooManyParametersAreRefusedBeforeDecoding() {
    byte[] large = HostileBodies.namesWithoutValues(16 * 1024 + 1);
    for (String path : new String[] {"/notify/alipay", "/notify/epay", "/notify/paypal"}) {
      assertThat(service.send(Notification.post(path, "application/x-www-form-urlencoded",
          new String(large, StandardCharsets.US_ASCII))).status()).as(path).isEqualTo(413);
    }
    String many = IntStream.range(0, 600).mapToObj(i -> "a" + i + "=1").collect(Collectors.joining("&"));
    assertThat(service.postAlipay(many)).isEqualTo(new Reply(400, "fail"));
    service.awaitLogRecorded();
    assertThat(db.string("SELECT detail FROM notify_log WHERE outcome = 'rejected'"))
        .contains("more than 512 parameters");
  }

  /**
   * N2: the body buffer was allocated at Content-Length before any byte arrived: connections that
   * declare the limit and send nothing held that much heap each until they timed out.
   */
  /**
   * Vert.x 5.0.7 throws while it parses a Host with a percent escape (eclipse-vertx/vert.x#5926), before any
   * handler of ours runs: the request was never answered, on any path, until the idle timeout.
   */
  @Test
  void aHostWithAPercentEscapeIsAnsweredAtOnce() throws Exception {
    for (String path : List.of("/notify/alipay", "/health", "/nowhere")) {
      RawRequest request = new RawRequest("POST", path, List.of(Map.entry("Host", "%C0%AF"),
          Map.entry("Content-Type", "application/x-www-form-urlencoded")), "a=1".getBytes(StandardCharsets.UTF_8),
          false);
      RawRequest.Answer answer = request.send(service.port(), Duration.ofSeconds(5));
      assertThat(answer.status()).as(path).isEqualTo(400);
    }
    assertThat(paynotify.testsupport.Http.get(service.port(), "/health").status()).isEqualTo(200);
  }

  @Test
  void declaredButUnsentBodiesHoldNoHeap() throws Exception {
    int connections = 200;
    int declared = 1024 * 1024;
    MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    List<Socket> sockets = new ArrayList<>();
    try (TestService large = TestService.start(db.settings(),
        new JsonObject().put("http", new JsonObject().put("max_body_bytes", declared)))) {
      large.send(Notification.post("/notify/alipay", "application/x-www-form-urlencoded", "a=1")); // warm up
      memory.gc();
      long before = memory.getHeapMemoryUsage().getUsed();
      for (int i = 0; i < connections; i++) {
        Socket s = new Socket("127.0.0.1", large.port());
        sockets.add(s);
        s.getOutputStream().write(("POST /notify/alipay HTTP/1.1\r\nHost: x\r\nContent-Type: "
            + "application/x-www-form-urlencoded\r\nContent-Length: " + declared + "\r\n\r\n")
            .getBytes(StandardCharsets.US_ASCII));
        s.getOutputStream().flush();
      }
      Thread.sleep(1000); // every request's headers read, its body awaited
      memory.gc();
      long held = memory.getHeapMemoryUsage().getUsed() - before;
      assertThat(held).as("heap held by %d connections declaring %d bytes", connections, declared)
          .isLessThan((long) connections * declared / 8);
    } finally {
      for (Socket s : sockets) {
        s.close();
      }
    }
  }
}
