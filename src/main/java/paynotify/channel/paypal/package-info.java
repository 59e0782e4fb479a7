/** PayPal IPN: the message posted back to PayPal, which says VERIFIED or INVALID; payments and refunds. */
package paynotify.channel.paypal;
