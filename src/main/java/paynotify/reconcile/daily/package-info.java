/**
 * The daily close: each day, once across all instances ({@code daily_closes}), yesterday's bill of each
 * platform fetched, reconciled against the bookings, and what it lacks repaired or recorded for a human.
 * {@link paynotify.reconcile.daily.DayClose} closes one platform's day (fetch, reconcile, repair with
 * {@link paynotify.reconcile.daily.BillRepair}, report): {@code paynotify reconcile --fetch} runs it.
 * {@link paynotify.reconcile.daily.DailyClose} schedules the service's closes, holds the lease and records what each
 * came to; {@link paynotify.reconcile.daily.CloseProcess} runs each as that command, in a process of its own.
 */
package paynotify.reconcile.daily;
