/**
 * PayPal IPN, in only: the message posted back to PayPal, which says VERIFIED or INVALID, after the checks that
 * need no asking ({@code PaypalIpnSignature}, {@code IpnPrecheck}, {@code VerifyEndpoint}); payments and refunds.
 */
package paynotify.channel.paypal;
