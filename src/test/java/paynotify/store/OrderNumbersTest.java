package paynotify.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import paynotify.channel.EventKind;
import paynotify.channel.NotifyEvent.Reading;
import paynotify.channel.NotifyEvent;
import paynotify.channel.Platform;

/** orders.out_trade_no: a fixed prefix and suffix around the site's number, and only that. */
class OrderNumbersTest {
  @Test
  void theSitesNumberIsWrittenAndReadBackBetweenItsPrefixAndSuffix() {
    OrderNumbers n = OrderNumbers.of("shop1:{order_no}-pay");
    assertThat(n.toPlatform("PN123")).isEqualTo("shop1:PN123-pay");
    assertThat(n.toSite("shop1:PN123-pay")).isEqualTo("PN123");
    assertThat(n.toSite((String) null)).isNull();
  }

  /** Review S2: the template binds. A number not written with it is never the site's order, on any path. */
  @Test
  void aNumberNotWrittenWithTheTemplateIsNoOrderOfTheSite() {
    OrderNumbers n = OrderNumbers.of("shop1:{order_no}-pay");
    assertThat(n.toSite("PN123")).isNull(); // another site's on the same account or key
    assertThat(n.toSite("shop1:-pay")).isNull();
    assertThat(n.toSite("shop1:PN123")).isNull();
  }

  /** A bill's number without the site's prefix is another site's on the same account (auto_repair leaves it). */
  @Test
  void aNumberIsWrittenTheSitesWayOnlyWithItsPrefixAndSuffix() {
    OrderNumbers n = OrderNumbers.of("shop1:{order_no}-pay");
    assertThat(n.written("shop1:1001-pay")).isTrue();
    assertThat(n.written("1001")).isFalse();
    assertThat(n.written("shop1:1001")).isFalse();
    assertThat(n.written("shop1:-pay")).isFalse();
    assertThat(OrderNumbers.AS_IS.written("1001")).isTrue();
  }

  /** V免签's other readings of one sign name orders as its order does: translated alike, or no order of the site. */
  @Test
  void theOtherReadingsOfAnEventAreTranslatedLikeItsOrder() {
    NotifyEvent paid = new NotifyEvent(Platform.VMQ, EventKind.PAYMENT, "AN", "P1", 1100, null, "paid")
        .withOtherReadings(List.of(new Reading("AN11", 100), new Reading("A", 1111)));
    NotifyEvent site = OrderNumbers.of("A{order_no}").toSite(paid);
    assertThat(site.orderNo()).isEqualTo("N");
    assertThat(site.otherReadings()).containsExactly(new Reading("N11", 100));
    assertThat(OrderNumbers.AS_IS.toSite(paid)).isSameAs(paid);
  }

  @Test
  void asItIsByDefault() {
    assertThat(OrderNumbers.of("{order_no}")).isSameAs(OrderNumbers.AS_IS);
    assertThat(OrderNumbers.AS_IS.toSite("x-pay")).isEqualTo("x-pay");
    assertThat(OrderNumbers.AS_IS.toPlatform("x")).isEqualTo("x");
  }

  @Test
  void aTemplateWithoutOneFixedPlaceholderIsRefused() {
    assertThatThrownBy(() -> OrderNumbers.of("PN")).hasMessageContaining("exactly once");
    assertThatThrownBy(() -> OrderNumbers.of("{order_no}{order_no}")).hasMessageContaining("exactly once");
    assertThatThrownBy(() -> OrderNumbers.of("{order_no}-wx-{time}")).hasMessageContaining("cannot be asked about");
    assertThatThrownBy(() -> OrderNumbers.of("a b{order_no}")).hasMessageContaining("fixed letters");
  }
}
