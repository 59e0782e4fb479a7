-- The platforms' certificates the service fetched itself, kept where every instance sees them
-- (store.PlatformCertificates): WeChat Pay's platform certificates downloaded from /v3/certificates (decrypted
-- with the APIv3 key, verified), and Alipay's re-issued certificate (alipayCertPublicKey_RSA2.crt) downloaded with
-- alipay.open.app.alipaycert.download when an answer names another alipay_cert_sn than the configured file's
-- (checked to chain to the configured root). Only public certificates: nothing here can sign or move money.
-- Times are UTC, one clock for every instance.
CREATE TABLE platform_certificates (
  platform    VARCHAR(16)   NOT NULL,                -- wechat, alipay (channel.Platform's stored names)
  serial      VARCHAR(64)   NOT NULL,                -- as the platform names it: WeChat's Wechatpay-Serial
                                                     -- (upper-case hex), Alipay's alipay_cert_sn
  certificate TEXT          NOT NULL,                -- PEM: the certificate, then its chain (Alipay's
                                                     -- intermediate), so that a reader can check it again
  not_before  DATETIME(3)   NOT NULL,
  not_after   DATETIME(3)   NOT NULL,
  source      VARCHAR(16)   NOT NULL,                -- downloaded (kept current by the service: WeChat's), reissued
                                                     -- (Alipay's: the configured file is out of date, tell the owner)
  fetched_at  DATETIME(3)   NOT NULL,                -- the last time the platform listed it
  PRIMARY KEY (platform, serial)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;
