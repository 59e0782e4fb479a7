/**
 * Alipay (支付宝), in and out: the asynchronous notification and its refunds ({@code AlipayChannel}, checked by
 * {@code AlipaySignature}: RSA2 over the sorted form fields); the OpenAPI call ({@code AlipayOpenApi}: signed with
 * the application's private key, its answer checked over the exact text {@code SignedAnswer} cuts out) behind the
 * order query and close ({@code AlipayGateway}) and the day's bill ({@code AlipayBills}), both built by
 * {@code AlipayClients} when the application's private key is given. Certificate mode (公钥证书模式):
 * {@code AlipayCertificates} (the SNs sent, the Alipay certificates known), {@code AlipayCertRules} (the SDK's SN
 * and chain rules), {@code AlipayReissue} (a re-issued certificate fetched, checked against the root, kept).
 */
package paynotify.channel.alipay;
