package paynotify.channel.wechat;

import java.io.ByteArrayInputStream;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;
import paynotify.channel.Ids;
import paynotify.channel.RejectedNotification.Reason;
import paynotify.channel.RejectedNotification;

/**
 * The flat XML of WeChat Pay v2 ({@code <xml><name>value</name>...</xml>}), written plainly and read by a hardened
 * StAX parser: a DOCTYPE or any entity reference is refused before anything is resolved, so no
 * file is read, no URL fetched and no entity expanded (XXE, billion laughs).
 */
public final class WechatXml {
  private static final XMLInputFactory FACTORY = hardenedFactory();

  private WechatXml() {}

  private static XMLInputFactory hardenedFactory() {
    XMLInputFactory factory = XMLInputFactory.newFactory();
    factory.setProperty(XMLInputFactory.SUPPORT_DTD, false);
    factory.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
    factory.setProperty(XMLInputFactory.IS_REPLACING_ENTITY_REFERENCES, false);
    factory.setProperty(XMLInputFactory.IS_COALESCING, true);
    return factory;
  }

  /**
   * The direct children of the root element {@code root}, by name, with their text (CDATA
   * unwrapped). Nested elements, repeated names and anything but a DOCTYPE-free document are
   * refused.
   */
  public static Map<String, String> parse(byte[] xml, String root) throws RejectedNotification {
    Map<String, String> fields = new LinkedHashMap<>();
    XMLStreamReader reader = null;
    try {
      reader = FACTORY.createXMLStreamReader(new ByteArrayInputStream(xml));
      int depth = 0;
      String name = null;
      StringBuilder text = new StringBuilder();
      while (reader.hasNext()) {
        switch (reader.next()) {
          case XMLStreamConstants.DTD, XMLStreamConstants.ENTITY_REFERENCE, XMLStreamConstants.ENTITY_DECLARATION ->
              throw new RejectedNotification(Reason.XML_DOCTYPE, "XML with a DOCTYPE or entity is refused");
          case XMLStreamConstants.START_ELEMENT -> {
            depth++;
            if (depth == 1 && !reader.getLocalName().equals(root)) {
              throw RejectedNotification.malformed("root element is <" + Ids.printable(reader.getLocalName())
                  + ">, expected <" + root + ">");
            }
            if (depth > 2) {
              throw RejectedNotification.malformed("nested element <" + Ids.printable(reader.getLocalName()) + ">");
            }
            if (depth == 2) {
              name = reader.getLocalName();
              text.setLength(0);
            }
          }
          case XMLStreamConstants.CHARACTERS, XMLStreamConstants.CDATA, XMLStreamConstants.SPACE -> {
            if (depth == 2) {
              text.append(reader.getText());
            }
          }
          case XMLStreamConstants.END_ELEMENT -> {
            if (depth == 2 && fields.put(name, text.toString()) != null) {
              throw RejectedNotification.malformed("element <" + Ids.printable(name) + "> appears twice");
            }
            depth--;
          }
          default -> { } // comments, processing instructions: no content
        }
      }
    } catch (XMLStreamException e) {
      String message = String.valueOf(e.getMessage());
      if (message.contains("DOCTYPE") || message.contains("DTD") || message.contains("entity")) {
        throw new RejectedNotification(Reason.XML_DOCTYPE, "XML with a DOCTYPE or entity is refused");
      }
      throw RejectedNotification.malformed("not well-formed XML: " + message.lines().findFirst().orElse(""));
    } finally {
      close(reader);
    }
    return fields;
  }

  /**
   * {@code fields} as the flat {@code <xml>} WeChat reads (a request to its API), each value escaped: a
   * value is text, never markup.
   */
  public static String write(Map<String, String> fields) {
    StringBuilder xml = new StringBuilder("<xml>");
    fields.forEach((name, value) -> xml.append('<').append(name).append('>')
        .append(value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;"))
        .append("</").append(name).append('>'));
    return xml.append("</xml>").toString();
  }

  private static void close(XMLStreamReader reader) {
    if (reader != null) {
      try {
        reader.close();
      } catch (XMLStreamException ignored) {
        // nothing is held open: the input is a byte array
      }
    }
  }
}
