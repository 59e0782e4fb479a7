/**
 * A platform's bill against the bookings, both directions, exactly: the bill readers
 * ({@link paynotify.reconcile.AlipayBill}, {@link paynotify.reconcile.WechatBill}), the merge in trade order, the
 * findings and their report; the duplicate audit. Its statements are in {@code ReconcileSql}.
 */
package paynotify.reconcile;
