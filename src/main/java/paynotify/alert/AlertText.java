package paynotify.alert;

import java.util.ArrayList;
import java.util.List;

/**
 * An alert's title or body: our own words, and apart from them what came from elsewhere (an order or trade number,
 * an anomaly's detail, what the site or a probe answered), which a target shows only through its {@link Format}.
 * That is the one place where text a buyer or a stranger could choose is kept from linking, mentioning or
 * formatting in the owner's group.
 */
final class AlertText {
  /** How a target's service reads what it is sent, and so what it must not be sent as it is. */
  enum Format {
    /** Telegram (no parse_mode), Bark, mail: nothing is markup. */
    PLAIN(""),
    /** WeCom, DingTalk, Server酱: links, images, HTML and {@code <@user>}, headings, quotes, emphasis, code, tables. */
    MARKDOWN("[]()<>*_\\`#!|@&"),
    /** Feishu's text message: its tags ({@code <at user_id="all">}, {@code <b>}), entities, [links](url), mentions. */
    FEISHU("<>&[]()@");

    private final String markup;

    Format(String markup) {
      this.markup = markup;
    }

    /**
     * Text from elsewhere with each character this format would read as markup replaced by its full-width twin
     * (［ for [, ＠ for @): WeCom and DingTalk document no escape character, and the twin reads the same to a person.
     */
    String show(String foreign) {
      StringBuilder shown = new StringBuilder(foreign.length());
      for (char c : foreign.toCharArray()) {
        shown.append(markup.indexOf(c) >= 0 ? (char) (c + 0xFEE0) : c); // U+FF01-FF5E: ASCII 0x21-0x7E, full-width
      }
      return shown.toString();
    }
  }

  /** One run of text, ours or from elsewhere. */
  private record Part(String text, boolean foreign) {}

  private final List<Part> parts;

  private AlertText(List<Part> parts) {
    this.parts = List.copyOf(parts);
  }

  /** Our own words: what this service says, never anything a request or a platform chose. */
  static AlertText of(String ours) {
    return new AlertText(List.of(new Part(ours, false)));
  }

  /** Text from elsewhere (null: none): shown only as each target's format makes it inert. */
  static AlertText foreign(String text) {
    return new AlertText(List.of(new Part(text == null ? "" : text, true)));
  }

  /** This, then our own {@code ours}. */
  AlertText then(String ours) {
    return then(of(ours));
  }

  /** This, then {@code more}. */
  AlertText then(AlertText more) {
    List<Part> joined = new ArrayList<>(parts);
    joined.addAll(more.parts);
    return new AlertText(joined);
  }

  /** As a target of {@code format} sends it. */
  String in(Format format) {
    StringBuilder text = new StringBuilder();
    for (Part p : parts) {
      text.append(p.foreign() ? format.show(p.text()) : p.text());
    }
    return text.toString();
  }

  /** As a plain target shows it (and a log line). */
  @Override
  public String toString() {
    return in(Format.PLAIN);
  }
}
