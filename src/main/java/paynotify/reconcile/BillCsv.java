package paynotify.reconcile;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.Charset;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;

/** What the two bill formats share: strict decoding, columns by header name, times. */
final class BillCsv {
  static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

  private BillCsv() {}

  /** Text in {@code charset}, failing on bytes that are not (rather than guessing); a BOM is skipped. */
  static Reader strictReader(InputStream in, Charset charset) throws IOException {
    CharsetDecoder decoder = charset.newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT);
    BufferedReader reader = new BufferedReader(new InputStreamReader(in, decoder), 1 << 16);
    reader.mark(1);
    if (reader.read() != '\uFEFF') {
      reader.reset();
    }
    return reader;
  }

  /** A parser whose first record is the header row. */
  static CSVParser parser(Reader reader, Character commentMarker) throws IOException {
    return CSVFormat.DEFAULT.builder()
        .setCommentMarker(commentMarker)
        .setIgnoreEmptyLines(true)
        .get()
        .parse(reader);
  }

  /** Column name -> index, for the header row; names are compared without surrounding blanks. */
  static Map<String, Integer> columns(CSVRecord header, String file, long line, List<String> required)
      throws BillFormatException {
    Map<String, Integer> index = new HashMap<>();
    for (int i = 0; i < header.size(); i++) {
      index.putIfAbsent(header.get(i).strip(), i);
    }
    for (String name : required) {
      if (!index.containsKey(name)) {
        throw new BillFormatException(file, line, name, "column missing from the header row: not this kind of bill?");
      }
    }
    return index;
  }

  static LocalDateTime time(String value, String file, long line, String column) throws BillFormatException {
    try {
      return LocalDateTime.parse(value, TIME);
    } catch (DateTimeParseException e) {
      throw new BillFormatException(file, line, column, "'" + value + "' is not a time yyyy-MM-dd HH:mm:ss");
    }
  }

  /** A decoding or CSV-syntax failure as a bill error ({@code e} wraps it when thrown by the parser's iterator). */
  static BillFormatException unreadable(String file, Exception e, String charset, String hint) {
    Throwable cause = e instanceof java.io.UncheckedIOException && e.getCause() != null ? e.getCause() : e;
    if (cause instanceof BillInput.TooLarge) {
      return new BillFormatException(file, 0, null, cause.getMessage());
    }
    if (cause instanceof java.nio.charset.CharacterCodingException) {
      return new BillFormatException(file, 0, null, "not " + charset + " text (" + hint + ")");
    }
    if (cause instanceof java.util.zip.ZipException || cause instanceof java.io.EOFException) {
      return new BillFormatException(file, 0, null, "the zip is cut short (" + cause.getMessage() + "): download it again");
    }
    return new BillFormatException(file, 0, null, "malformed CSV: " + cause.getMessage());
  }

  /** The file itself cannot be read (missing, a directory, no permission, past a bound): one line, no stack trace. */
  static BillFormatException cannotRead(String file, IOException e) {
    if (e instanceof BillInput.TooLarge) {
      return new BillFormatException(file, 0, null, e.getMessage());
    }
    String why = e instanceof NoSuchFileException ? "no such file"
        : e instanceof AccessDeniedException ? "permission denied" : e.getMessage();
    return new BillFormatException(file, 0, null, "cannot read the bill (" + why + ")");
  }

  static String required(String value, String file, long line, String column) throws BillFormatException {
    if (value == null || value.isEmpty()) {
      throw new BillFormatException(file, line, column, "empty");
    }
    return value;
  }
}
