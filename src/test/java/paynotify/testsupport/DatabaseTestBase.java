package paynotify.testsupport;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;

/** A test on the test database, emptied before every test. */
@Tag("db")
public abstract class DatabaseTestBase {
  protected static final TestDatabase db = TestDatabase.get();

  @BeforeEach
  void emptyTables() {
    beforeReset();
    db.reset();
  }

  /** What must settle before the tables are emptied; nothing by default. */
  protected void beforeReset() {
  }
}
