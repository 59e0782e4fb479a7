/**
 * epay-style aggregators (易支付), in and out: the notification, MD5 over the sorted query, pid and key per
 * merchant, GET or POST ({@code EpayChannel}, {@code EpaySignature}); the order query {@code api.php?act=order},
 * whose answers are unsigned ({@code EpayGateway}, built by {@code EpayClients} when epay.gateway_url is set), and
 * which confirms a signed payment before it is booked with epay.confirm_before_book.
 */
package paynotify.channel.epay;
