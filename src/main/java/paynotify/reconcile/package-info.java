/**
 * A platform's bill against the bookings, both directions, exactly: the bill formats
 * ({@link paynotify.reconcile.AlipayBill}, {@link paynotify.reconcile.WechatBill}), the merge in trade order, the
 * findings and their report; the duplicate audit. Its statements are in {@code ReconcileSql}. The daily close that
 * fetches each bill and runs this is in {@code reconcile.daily}.
 */
package paynotify.reconcile;
