package paynotify.cli.options;

import java.nio.file.Path;
import picocli.CommandLine.ITypeConverter;

/**
 * A path typed by the operator, resolved against the directory they ran the command in.
 * scripts/paynotify works in the installation directory (where conf/ and target/ are, and the
 * configuration's own relative paths point) and passes the caller's as {@value #PROPERTY}; without
 * it (the jar run directly) the two are the same directory.
 */
public final class CallerPath implements ITypeConverter<Path> {
  public static final String PROPERTY = "paynotify.caller_dir";

  @Override
  public Path convert(String value) {
    return Path.of(System.getProperty(PROPERTY, "")).resolve(value);
  }
}
