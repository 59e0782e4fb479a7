/**
 * The daily close: each day, once across all instances ({@code daily_closes}), yesterday's bill of each
 * platform fetched, reconciled against the bookings, and what it lacks repaired or recorded for a human
 * ({@link paynotify.reconcile.daily.DailyClose}, {@link paynotify.reconcile.daily.BillRepair}).
 */
package paynotify.reconcile.daily;
