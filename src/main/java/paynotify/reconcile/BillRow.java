package paynotify.reconcile;

import java.time.LocalDateTime;

/**
 * One payment or refund line of a platform bill, in our terms.
 *
 * @param refundNo    the refund id as the refunds table stores it (Alipay: the request number;
 *                    WeChat: 微信退款单号); null on payment rows
 * @param amountCents the trade total (payments) or the refunded amount (refunds), positive
 * @param at          payment time (payments) or refund time (refunds), platform (Beijing) time
 * @param line        where the row ends in the bill, for messages
 */
public record BillRow(boolean refund, String tradeNo, String orderNo, String refundNo, String outRefundNo,
    long amountCents, LocalDateTime at, long line) {}
