/**
 * TokenPay (LightCountry/TokenPay): USDT, TRX and EVM-token payments of a fiat order, a JSON notification signed
 * with MD5 over its sorted fields and the ApiToken; paid at Status 1, the only status it notifies. Asked only by its
 * own Id ({@link paynotify.channel.tokenpay.TokenPayQuery}), to confirm a notification before it is booked.
 */
package paynotify.channel.tokenpay;
