/**
 * TokenPay (LightCountry/TokenPay), in only: USDT, TRX and EVM-token payments of a fiat order, a JSON notification
 * signed with MD5 over its sorted fields and the ApiToken; paid at Status 1, the only status it notifies.
 */
package paynotify.channel.tokenpay;
