/** Alipay (支付宝): the asynchronous notification (RSA2 over the sorted form fields) and its refunds. */
package paynotify.channel.alipay;
