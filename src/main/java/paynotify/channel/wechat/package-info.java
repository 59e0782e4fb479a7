/** WeChat Pay (微信支付) v2 (XML, MD5 or HMAC-SHA256 sign, refunds in AES-ECB) and v3 (RSA over the headers, AES-GCM resource). */
package paynotify.channel.wechat;
