package paynotify.alert;

import paynotify.alert.AlertText.Format;

/**
 * One message for the site's owner, in the configured language: what happened and what to do. Its words are ours;
 * what came from elsewhere (an order number, an anomaly's detail) is kept apart in it, for each target to show
 * through its own {@link Format}.
 */
public final class Alert {
  private final String kind;
  private final AlertText title;
  private final AlertText text;

  /**
   * A message in our own words only.
   *
   * @param kind  what it is about (an anomaly's kind, {@code forward_failed}, {@code signature_burst}, ...):
   *              messages of one kind are throttled together
   * @param title one line, e.g. {@code 支付异常：未知订单 PN123 ¥29.90}
   * @param text  the body, plain text in lines
   */
  public Alert(String kind, String title, String text) {
    this(kind, AlertText.of(title), AlertText.of(text));
  }

  Alert(String kind, AlertText title, AlertText text) {
    this.kind = kind;
    this.title = title;
    this.text = text;
  }

  public String kind() {
    return kind;
  }

  /** The title as plain text (Telegram, Bark, mail, a log line). */
  public String title() {
    return title.in(Format.PLAIN);
  }

  /** The body as plain text. */
  public String text() {
    return text.in(Format.PLAIN);
  }

  String title(Format format) {
    return title.in(format);
  }

  String text(Format format) {
    return text.in(format);
  }

  /** This alert with our own words added to the end of its title and of its text (a fold's count). */
  Alert with(String titleEnd, String textEnd) {
    return new Alert(kind, title.then(titleEnd), text.then(textEnd));
  }

  @Override
  public String toString() {
    return "Alert[kind=" + kind + ", title=" + title + ", text=" + text + "]";
  }
}
