package paynotify.recovery;

import paynotify.channel.Outbound;
import paynotify.store.Database;

/**
 * Where a platform's undelivered events come from (its list, read by its channel as their webhooks), and the database
 * that keeps how far they were read (recovery's pool).
 */
public record MissedEventsFeed(Outbound.Undelivered events, Database db) {}
