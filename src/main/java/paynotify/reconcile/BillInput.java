package paynotify.reconcile;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * A bill's bytes (unpacked, for a zip), bounded as they are read: the whole bill, and what one record takes
 * with the comment or blank lines before it, which commons-csv gathers in one buffer. A crafted file (a zip
 * unpacking a thousandfold, a block of comments, one endless value) is refused at the bound, within a small heap
 * and in moments, where it would otherwise run the tools out of memory.
 */
final class BillInput extends FilterInputStream {
  /** A whole bill, unpacked: a small shop's day is a few MiB (a few hundred bytes a trade), 200,000 rows 40. */
  static final long MAX_BYTES = 256L << 20;
  /** One record and what comes before it: a row is a few hundred bytes, the comments above the header fewer. */
  static final long MAX_RECORD_BYTES = 1L << 20;

  /** Past a bound: thrown through the reader and the CSV parser, told as a {@link BillFormatException}. */
  static final class TooLarge extends IOException {
    private TooLarge(String message) {
      super(message);
    }
  }

  private long total;
  private long sinceRecord;

  BillInput(InputStream in) {
    super(in);
  }

  /** A record was read: the next one's bound starts here. */
  void recordRead() {
    sinceRecord = 0;
  }

  /** Reads the rest of a zip entry that is not the bill: it counts toward the whole, not toward a record. */
  void skipEntry() throws IOException {
    byte[] chunk = new byte[8192];
    while (read(chunk, 0, chunk.length) >= 0) {
      recordRead();
    }
  }

  @Override
  public int read() throws IOException {
    int b = super.read();
    counted(b < 0 ? -1 : 1);
    return b;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    return counted(super.read(b, off, len));
  }

  private int counted(int n) throws TooLarge {
    if (n > 0) {
      total += n;
      sinceRecord += n;
      if (total > MAX_BYTES) {
        throw new TooLarge("holds more than " + (MAX_BYTES >> 20) + " MiB (unpacked): no day's bill is that large;"
            + " refused unread (a crafted zip?)");
      }
      if (sinceRecord > MAX_RECORD_BYTES) {
        throw new TooLarge("more than " + (MAX_RECORD_BYTES >> 20) + " MiB in one record, or in the comment or"
            + " blank lines before one: not a bill");
      }
    }
    return n;
  }
}
