package paynotify.booking;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The idempotency keys this process last saw committed: the last {@link #GENERATION} at least, twice
 * that at most, the oldest forgotten first. Only a key in here is looked up before the booking (the duplicate pre-check): it is
 * a repeat, answered by one read, and 503 when that read cannot answer. Any other key goes straight to
 * the transaction: a first delivery has nothing to find, and a repeat found there costs a rolled-back
 * attempt once. Only verified events' keys enter, so its bound is the only one it needs.
 *
 * <p>Kept as 64-bit hashes in two open-addressing tables, a young and an old generation (a key seen again
 * moves to the young one), in 512 KiB: a platform retries for a day or more, and 16,384 keys or more (not
 * 4,096 as strings) cover that on a small site. A hash two keys share only sends a first delivery to the read
 * first, which finds nothing.
 */
final class BookedKeys {
  /** Keys a generation holds. */
  static final int GENERATION = 16 * 1024;
  /** Each generation's slots: twice what it holds, so that probes stay short. */
  private static final int SLOTS = 2 * GENERATION;
  /** Marks a free slot: a key that hashes to it is stored as 1 (a collision with key 1 costs only a read). */
  private static final long FREE = 0;

  private long[] young = new long[SLOTS];
  private long[] old = new long[SLOTS];
  private int youngSize;

  synchronized void add(String key) {
    long hash = hash(key);
    if (!contains(young, hash)) {
      if (youngSize == GENERATION) { // full: the young become the old, the old are forgotten
        long[] forgotten = old;
        old = young;
        Arrays.fill(forgotten, FREE);
        young = forgotten;
        youngSize = 0;
      }
      put(young, hash);
      youngSize++;
    }
  }

  synchronized boolean contains(String key) {
    long hash = hash(key);
    if (contains(young, hash)) {
      return true;
    }
    if (!contains(old, hash)) {
      return false;
    }
    add(key); // replayed: kept another generation
    return true;
  }

  private static boolean contains(long[] table, long hash) {
    for (int slot = slot(hash); table[slot] != FREE; slot = (slot + 1) & (SLOTS - 1)) {
      if (table[slot] == hash) {
        return true;
      }
    }
    return false;
  }

  private static void put(long[] table, long hash) {
    int slot = slot(hash);
    while (table[slot] != FREE) {
      slot = (slot + 1) & (SLOTS - 1);
    }
    table[slot] = hash;
  }

  private static int slot(long hash) {
    return (int) (hash ^ (hash >>> 32)) & (SLOTS - 1);
  }

  /** FNV-1a over the key's UTF-8 bytes, mixed (a murmur3 finaliser) so that similar keys spread. */
  private static long hash(String key) {
    long h = 0xcbf29ce484222325L;
    for (byte b : key.getBytes(StandardCharsets.UTF_8)) {
      h = (h ^ (b & 0xff)) * 0x100000001b3L;
    }
    h ^= h >>> 33;
    h *= 0xff51afd7ed558ccdL;
    h ^= h >>> 33;
    h *= 0xc4ceb9fe1a85ec53L;
    h ^= h >>> 33;
    return h == FREE ? 1 : h;
  }
}
