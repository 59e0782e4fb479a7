/**
 * WeChat Pay (微信支付), in and out. API v2: XML ({@code WechatXml}, hardened), an MD5 or HMAC-SHA256 sign, refunds
 * in AES-ECB ({@code WechatV2Channel}, {@code WechatV2Signature}); its signed call ({@code WechatV2Client}) for the
 * order query and close ({@code WechatV2Gateway}) and the day's bill ({@code WechatV2Bills}). API v3: RSA over the
 * headers, an AES-GCM resource ({@code WechatV3Channel}, {@code WechatV3Signature}); its signed call
 * ({@code WechatV3Client}) for the order query and close ({@code WechatV3Gateway}) and the day's bill
 * ({@code WechatV3Bills}, checked by its SHA-1); the platform certificates downloaded ({@code WechatV3Certificates})
 * and kept current for every instance ({@code WechatV3CertificateKeeper}, on a shelf the server backs with the
 * database: channels never touch it). {@code WechatClients} builds the one query and bill of WeChat's one
 * trade space: v3's with its merchant key, else v2's.
 */
package paynotify.channel.wechat;
