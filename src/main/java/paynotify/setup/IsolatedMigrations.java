package paynotify.setup;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import paynotify.channel.Platform;
import paynotify.config.AppConfig.DatabaseSettings;
import paynotify.config.ConfigException;
import paynotify.store.OrdersTable;

/**
 * Runs {@code setup.migrate.DatabaseMigrations#runAndRelease} for {@code serve} with Flyway, the JDBC driver and our
 * JDBC code loaded by a class loader of their own, dropped afterwards. The service needs them at
 * start only; loaded by the application's loader, their classes (over 1,100, about 5 MB of metaspace)
 * would stay for the life of the process, a twentieth of what a small VPS gives it.
 */
public final class IsolatedMigrations {
  /** Our code that runs in the isolated loader: the whole package, so that a class added to it is not forgotten. */
  private static final String MIGRATE = "paynotify.setup.migrate.";
  /** What the isolated loader loads itself (names starting so); everything else is the application's. */
  private static final List<String> OWN = List.of("org.flywaydb.", "org.mariadb.jdbc.", MIGRATE);

  private IsolatedMigrations() {}

  /** As {@code DatabaseMigrations.run}; afterwards a collection unloads what it loaded. */
  public static int run(DatabaseSettings db, OrdersTable orders, Set<Platform> platforms, String source)
      throws SQLException {
    try {
      return runInOwnLoader(db, orders, platforms, source);
    } finally {
      System.gc(); // once, at start: class unloading needs a full collection, and the loader is unreachable here
    }
  }

  private static int runInOwnLoader(DatabaseSettings db, OrdersTable orders, Set<Platform> platforms, String source)
      throws SQLException {
    Thread thread = Thread.currentThread();
    ClassLoader context = thread.getContextClassLoader();
    try (Loader loader = new Loader(IsolatedMigrations.class.getClassLoader())) {
      thread.setContextClassLoader(loader); // where DriverManager and Flyway's plugins are looked up
      Method run = loader.loadClass(MIGRATE + "DatabaseMigrations")
          .getDeclaredMethod("runAndRelease", DatabaseSettings.class, OrdersTable.class, Set.class, String.class);
      return (int) run.invoke(null, db, orders, platforms, source);
    } catch (InvocationTargetException e) {
      throw unwrapped(e.getCause());
    } catch (IOException | ReflectiveOperationException | LinkageError e) {
      throw incomplete(e);
    } finally {
      thread.setContextClassLoader(context);
    }
  }

  /** Waiting would not mend it (DatabaseWait retries what is not a ConfigException): exit 2. */
  private static ConfigException incomplete(Throwable e) {
    return new ConfigException("cannot load the database migrations (" + e + "): the installation is incomplete;"
        + " build it again (mvn -DskipTests package) and copy target/paynotify.jar with target/lib");
  }

  /** What runAndRelease threw: its SQLException, or unchecked; a LinkageError is an incomplete installation. */
  private static SQLException unwrapped(Throwable cause) {
    if (cause instanceof SQLException sql) {
      return sql;
    }
    if (cause instanceof LinkageError linkage) {
      throw incomplete(linkage);
    }
    if (cause instanceof RuntimeException unchecked) {
      throw unchecked;
    }
    throw (Error) cause; // runAndRelease declares no other
  }

  /** Child-first for {@link #OWN}, parent-first for the rest, over the application's class path. */
  private static final class Loader extends URLClassLoader {
    Loader(ClassLoader parent) {
      super("paynotify-migrations", classPath(), parent);
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
      if (OWN.stream().noneMatch(name::startsWith)) {
        return super.loadClass(name, resolve);
      }
      synchronized (getClassLoadingLock(name)) {
        Class<?> loaded = findLoadedClass(name);
        if (loaded == null) {
          loaded = findClass(name);
        }
        if (resolve) {
          resolveClass(loaded);
        }
        return loaded;
      }
    }

    private static URL[] classPath() {
      return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
          .filter(entry -> !entry.isEmpty())
          .map(entry -> {
            try {
              return Path.of(entry).toUri().toURL();
            } catch (MalformedURLException e) {
              throw new UncheckedIOException(e);
            }
          })
          .toArray(URL[]::new);
    }
  }
}
