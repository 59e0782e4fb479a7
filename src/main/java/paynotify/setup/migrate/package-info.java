/**
 * Exactly what {@link paynotify.setup.IsolatedMigrations} loads in its own class loader, with Flyway and the JDBC
 * driver, and drops once the schema is up to date: the migrations, the Galera migration lease, the check of the
 * site's orders table, and {@link paynotify.setup.migrate.Jdbc}, the one way to open a JDBC connection. A class
 * added here runs in that loader too; nothing here may keep state past the start.
 */
package paynotify.setup.migrate;
