package paynotify.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The README is what a site owner reads in ten minutes: at most 350 lines, its sections listed near the
 * top, and a link to every page of docs/, where the rest lives. Every relative link of README.md and
 * docs/*.md points at a file that exists, and its anchor at a heading of that file, named as GitHub names
 * headings: so that a page moved or a heading renamed fails here, not in a reader's browser.
 */
class DocsLinksTest {
  private static final Path README = Path.of("README.md");
  private static final int README_LINES = 350;
  /** The contents list must start within the README's first lines: the pitch, then the list. */
  private static final int CONTENTS_WITHIN = 20;
  private static final Pattern LINK = Pattern.compile("\\[[^\\]]*\\]\\(([^)\\s]+)\\)");
  private static final Pattern CODE_SPAN = Pattern.compile("`[^`]*`");

  @Test
  void theReadmeIsReadInTenMinutes() {
    assertThat(lines(README)).as("README.md's lines").hasSizeLessThanOrEqualTo(README_LINES);
  }

  @Test
  void theReadmeListsItsSectionsNearTheTop() {
    List<String> lines = prose(README);
    int contents = lines.indexOf("## Contents");
    assertThat(contents).as("the line of README.md's \"## Contents\"").isBetween(0, CONTENTS_WITHIN);
    List<String> listed = new ArrayList<>();
    for (int i = contents + 1; i < lines.size() && !lines.get(i).startsWith("#"); i++) {
      Matcher link = LINK.matcher(lines.get(i));
      if (lines.get(i).startsWith("- ") && link.find()) {
        listed.add(link.group(1));
      }
    }
    List<String> sections = lines.subList(contents + 1, lines.size()).stream().filter(l -> l.startsWith("## "))
        .map(l -> "#" + slug(l.substring(3))).toList();
    assertThat(listed).as("README.md's contents list: a link to each of its sections, in order")
        .containsExactlyElementsOf(sections);
  }

  @Test
  void theReadmeLinksEveryDocsPage() throws IOException {
    Set<Path> linked = new TreeSet<>();
    for (String target : links(README)) {
      if (relative(target)) {
        linked.add(file(README, target));
      }
    }
    try (Stream<Path> docs = Files.list(Path.of("docs"))) {
      assertThat(docs.filter(Files::isRegularFile).map(Path::normalize).toList())
          .as("pages of docs/ the README does not link").isNotEmpty().allMatch(linked::contains);
    }
  }

  @ParameterizedTest
  @MethodSource("pages")
  void everyRelativeLinkPointsAtSomethingThatExists(Path page) {
    List<String> broken = new ArrayList<>();
    for (String target : links(page)) {
      if (!relative(target)) {
        continue;
      }
      Path file = file(page, target);
      int hash = target.indexOf('#');
      if (!Files.exists(file)) {
        broken.add(target + " (no file " + file + ")");
      } else if (hash >= 0 && !anchors(file).contains(target.substring(hash + 1))) {
        broken.add(target + " (no heading of " + file + " is named " + target.substring(hash + 1) + ")");
      }
    }
    assertThat(broken).as(page + ": links to nothing").isEmpty();
  }

  static List<Path> pages() throws IOException {
    try (Stream<Path> docs = Files.list(Path.of("docs"))) {
      return Stream.concat(Stream.of(README), docs.filter(p -> p.toString().endsWith(".md")).sorted()).toList();
    }
  }

  /** The link targets of {@code page}, outside code blocks and code spans. */
  private static List<String> links(Path page) {
    List<String> targets = new ArrayList<>();
    for (String line : prose(page)) {
      Matcher link = LINK.matcher(CODE_SPAN.matcher(line).replaceAll(""));
      while (link.find()) {
        targets.add(link.group(1));
      }
    }
    return targets;
  }

  private static boolean relative(String target) {
    return !target.matches("[a-z]+:.*"); // https:, mailto:
  }

  /** The file a relative link of {@code page} names: the page itself for a bare #anchor. */
  private static Path file(Path page, String target) {
    String path = target.contains("#") ? target.substring(0, target.indexOf('#')) : target;
    Path dir = page.getParent() == null ? Path.of("") : page.getParent();
    return (path.isEmpty() ? page : dir.resolve(path)).normalize();
  }

  /** The anchors GitHub gives the headings of {@code file} (a Markdown file; none for another). */
  private static Set<String> anchors(Path file) {
    Set<String> anchors = new TreeSet<>();
    if (!file.toString().endsWith(".md")) {
      return anchors;
    }
    Map<String, Integer> seen = new HashMap<>();
    for (String line : prose(file)) {
      if (line.matches("#{1,6} .*")) {
        String slug = slug(line.replaceFirst("^#+ ", ""));
        int n = seen.merge(slug, 1, Integer::sum);
        anchors.add(n == 1 ? slug : slug + "-" + (n - 1));
      }
    }
    return anchors;
  }

  /** GitHub's heading anchor: lower case, punctuation dropped (letters, digits, _ and - kept), spaces as -. */
  private static String slug(String heading) {
    return heading.strip().toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N}\\p{M} _-]", "").replace(' ', '-');
  }

  /** The lines of {@code page} outside fenced code blocks (whose "# comment" lines are no headings). */
  private static List<String> prose(Path page) {
    List<String> prose = new ArrayList<>();
    boolean inCode = false;
    for (String line : lines(page)) {
      if (line.stripLeading().startsWith("```")) {
        inCode = !inCode;
      } else if (!inCode) {
        prose.add(line);
      }
    }
    return prose;
  }

  private static List<String> lines(Path page) {
    try {
      return Files.readAllLines(page);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
