/**
 * The one shape of the background workers' clocks ({@link paynotify.timer.Periodic}): a tick that never overlaps
 * itself, and a stop that lets the tick in flight finish. Their leases are {@code store.Lease}'s.
 */
package paynotify.timer;
