/**
 * The database made ready before the service serves: waited for ({@link paynotify.setup.DatabaseWait}), embedded
 * for a trial ({@link paynotify.setup.EmbeddedDatabase}), refused in one line that names the keys to look at
 * ({@link paynotify.setup.DatabaseRefusal}), and migrated: by {@code serve} in a class loader of its own
 * ({@link paynotify.setup.IsolatedMigrations}), by the commands in place ({@link paynotify.setup.Schema}).
 */
package paynotify.setup;
