/**
 * What signature rules are built from, inbound and outbound: digests and the constant-time comparison
 * ({@link paynotify.crypto.Digests}), the RSA check ({@link paynotify.crypto.RsaSignatureCheck}), public keys
 * read from PEM or certificates ({@link paynotify.crypto.PublicKeys}) and the merchant's private key that signs
 * requests ({@link paynotify.crypto.MerchantKey}); where the platforms' certificates the service fetched itself are
 * kept ({@link paynotify.crypto.CertificateShelf}). The rules themselves are the platforms' (see
 * {@code channel.Signatures}).
 */
package paynotify.crypto;
