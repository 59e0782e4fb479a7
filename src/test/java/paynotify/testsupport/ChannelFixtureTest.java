package paynotify.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import paynotify.channel.NotifyChannel;
import paynotify.config.AppConfig;
import paynotify.config.ChannelsConfig;

/** A channel the service has but {@link ChannelFixture#all} lacks would be left out of every suite. */
class ChannelFixtureTest {
  @Test
  void allHoldsEveryChannelTheServiceHas() throws Exception {
    ChannelsConfig channels = AppConfig.from(TestService.configuration(new JsonObject()), "test", Map.of()).channels();
    assertThat(channels.disabled()).as("channels the test configuration leaves off").isEmpty();

    List<String> fixtures = new ArrayList<>();
    for (ChannelFixture ch : ChannelFixture.all()) {
      fixtures.add(ch.payment("F1", "T-F1", 100, 0).path());
    }
    assertThat(fixtures).containsExactlyInAnyOrderElementsOf(channels.enabled().stream().map(NotifyChannel::path).toList());
  }
}
