package paynotify.alert;

/**
 * One message for the site's owner, in the configured language: what happened and what to do.
 *
 * @param kind  what it is about (an anomaly's kind, {@code forward_failed}, {@code signature_burst}, ...): messages
 *              of one kind are throttled together
 * @param title one line, e.g. {@code 支付异常：未知订单 PN123 ¥29.90}
 * @param text  the body, plain text in lines (targets that take Markdown get it as it is: no markup in it)
 */
public record Alert(String kind, String title, String text) {}
