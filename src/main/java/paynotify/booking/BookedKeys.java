package paynotify.booking;

import io.netty.util.collection.LongObjectHashMap;
import java.nio.charset.StandardCharsets;

/**
 * The idempotency keys this process last saw committed: the last {@link #GENERATION} at least, twice
 * that at most, the oldest forgotten first. Only a key in here is looked up before the booking (the duplicate
 * pre-check): it is a repeat, answered by one read, and 503 when that read cannot answer. Any other key goes
 * straight to the transaction: a first delivery has nothing to find, and a repeat found there costs a
 * rolled-back attempt once. Only verified events' keys enter, so its bound is the only one it needs.
 *
 * <p>Kept as 64-bit hashes in two of Netty's primitive maps, a young and an old generation (a key seen again
 * moves to the young one), in some 768 KiB: a platform retries for a day or more, and 16,384 keys or more (not
 * 4,096 as strings) cover that on a small site. A hash two keys share only sends a first delivery to the read
 * first, which finds nothing.
 */
final class BookedKeys {
  /** Keys a generation holds. */
  static final int GENERATION = 16 * 1024;

  private LongObjectHashMap<Boolean> young = generation();
  private LongObjectHashMap<Boolean> old = generation();

  synchronized void add(String key) {
    long hash = hash(key);
    if (!young.containsKey(hash)) {
      if (young.size() == GENERATION) { // full: the young become the old, the old are forgotten
        old = young;
        young = generation();
      }
      young.put(hash, Boolean.TRUE);
    }
  }

  synchronized boolean contains(String key) {
    long hash = hash(key);
    if (young.containsKey(hash)) {
      return true;
    }
    if (!old.containsKey(hash)) {
      return false;
    }
    add(key); // replayed: kept another generation
    return true;
  }

  /** Room for a generation without growing: twice its keys (the map's load factor is one half). */
  private static LongObjectHashMap<Boolean> generation() {
    return new LongObjectHashMap<>(2 * GENERATION);
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
    return h ^ (h >>> 33);
  }
}
