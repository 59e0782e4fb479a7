/**
 * The database: the pool and the only way to use it ({@link paynotify.store.Database#inTransaction}), the pinned
 * sessions, the statements ({@link paynotify.store.SqlQueries}, where the races are decided), the site's orders
 * table as mapped ({@link paynotify.store.OrdersTable}), the request logs and the purge, and
 * {@link paynotify.store.Lease}: one instance's hold on a row (an order's check, a day's close, the alert watch),
 * decided by a conditional UPDATE's row count.
 */
package paynotify.store;
