package paynotify.app;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The embedded MariaDB's directory, held by the process that runs it: a second instance started on it
 * would unpack the server over the running one's files, then wait for the data's locks and fail, and
 * meanwhile write its own port where the tools look. The kernel releases the lock when the process
 * ends, however it ends.
 */
final class DataDirLock {
  private final FileChannel channel;

  private DataDirLock(FileChannel channel) {
    this.channel = channel;
  }

  /** Null when another process (or another server in this one) holds {@code dir}. */
  static DataDirLock take(Path dir) throws IOException {
    Files.createDirectories(dir);
    FileChannel channel = FileChannel.open(dir.resolve("lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    FileLock lock;
    try {
      lock = channel.tryLock();
    } catch (OverlappingFileLockException heldHere) {
      lock = null;
    }
    if (lock == null) {
      channel.close();
      return null;
    }
    return new DataDirLock(channel);
  }

  void release() throws IOException {
    channel.close(); // and the lock with it
  }
}
