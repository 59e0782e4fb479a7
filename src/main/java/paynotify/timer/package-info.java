/**
 * The one shape of the background workers' clocks ({@link paynotify.timer.Periodic}): the sweeper's, the daily
 * close's, the alert watch's, each forward endpoint's rounds, housekeeping's. A tick never overlaps itself, one that
 * fails is logged and the clock goes on, and a stop lets the tick in flight finish. What a worker holds while it
 * ticks (an order, a day, the watch) is a {@code store.Lease}. On the ground floor: it knows nothing but Vert.x.
 */
package paynotify.timer;
