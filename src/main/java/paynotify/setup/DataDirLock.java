package paynotify.setup;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The embedded MariaDB's directory, held by the process that runs it: a second instance started on it
 * would start a second server on the same files, which waits 30 s for their locks and then fails with a
 * line of mariadbd's that names no key. The kernel releases the lock when the process ends, however it
 * ends.
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
