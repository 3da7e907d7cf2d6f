package org.ndktck.tck.runner;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * An exclusions file ({@code --exclusions FILE}): rules a provider team knowingly fails, each with a
 * reason and an expiry date, so a CI gate stays green while a fix is on its way and turns red again when
 * the date passes.
 *
 * <p>Format: one entry per line, three fields separated by {@code |}:
 * <pre>
 * # rule (ID or glob) | expires (YYYY-MM-DD, last day the entry holds) | reason
 * MR-FR-3             | 2027-03-31                                      | firmware 2.1 checks FBO late; fix in 2.2 (bug 1234)
 * </pre>
 * Blank lines and lines starting with {@code #} are ignored. An entry holds through its expiry date; after
 * that it is ignored and the run says so. An excluded rule's properties do not run and the rule is
 * reported EXCLUDED with its reason.
 *
 * @param entries the entries in file order
 */
public record Exclusions(List<Entry> entries) {

    /** No exclusions. */
    public static final Exclusions NONE = new Exclusions(List.of());

    /**
     * One entry.
     *
     * @param pattern the rule ID or glob
     * @param expires the last day the entry holds
     * @param reason  why the rule is excluded
     * @param line    the line number in the file (1-based)
     */
    public record Entry(String pattern, LocalDate expires, String reason, int line) {
        /**
         * @param today the date of the run
         * @return true when the entry no longer holds
         */
        public boolean expired(LocalDate today) {
            return today.isAfter(expires);
        }
    }

    /** Copies the list. */
    public Exclusions {
        entries = List.copyOf(entries);
    }

    /**
     * @param file the exclusions file
     * @param ids  every rule ID of the catalog, to check each entry names at least one rule
     * @return the parsed exclusions
     * @throws UsageException when the file cannot be read or a line is malformed (the message names the line)
     */
    public static Exclusions read(Path file, List<String> ids) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            throw new UsageException("cannot read exclusions file " + file + ": " + ioReason(file, e),
                    "pass a readable file of lines 'RULE-ID | YYYY-MM-DD | reason'");
        }
        List<Entry> entries = new ArrayList<>();
        String hint = "each entry is 'RULE-ID | YYYY-MM-DD | reason' (expiry date inclusive)";
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String where = file + ":" + (i + 1);
            String[] f = line.split("\\|", 3);
            if (f.length < 3 || f[0].isBlank() || f[1].isBlank() || f[2].isBlank()) {
                throw new UsageException("bad exclusion at " + where + ": '" + line + "'", hint);
            }
            LocalDate expires;
            try {
                expires = LocalDate.parse(f[1].trim());
            } catch (DateTimeParseException e) {
                throw new UsageException("bad expiry date '" + f[1].trim() + "' at " + where, hint);
            }
            try {
                RulePatterns.select(ids, f[0].trim());
            } catch (UsageException e) {
                throw new UsageException(e.getMessage() + " at " + where, e.hint());
            }
            entries.add(new Entry(f[0].trim(), expires, f[2].trim(), i + 1));
        }
        return new Exclusions(entries);
    }

    /**
     * @param ids   rule IDs in catalog order
     * @param today the date of the run
     * @return each excluded rule with the first entry in force that names it
     */
    public Map<String, Entry> inForce(List<String> ids, LocalDate today) {
        Map<String, Entry> out = new LinkedHashMap<>();
        for (Entry e : entries) {
            if (e.expired(today)) {
                continue;
            }
            Set<String> hit = RulePatterns.select(ids, e.pattern());
            for (String id : hit) {
                out.putIfAbsent(id, e);
            }
        }
        return out;
    }

    /**
     * @param today the date of the run
     * @return the entries that have expired
     */
    public List<Entry> expired(LocalDate today) {
        return entries.stream().filter(e -> e.expired(today)).toList();
    }

    /**
     * @param file the file
     * @param e    what reading it threw
     * @return why it could not be read, in words (the JDK's messages of these exceptions are just the path)
     */
    static String ioReason(Path file, Exception e) {
        if (e instanceof java.nio.file.NoSuchFileException) {
            return "no such file";
        }
        if (e instanceof java.nio.file.AccessDeniedException) {
            return "permission denied";
        }
        if (Files.isDirectory(file)) {
            return "it is a directory";
        }
        if (e instanceof java.nio.charset.MalformedInputException || e instanceof java.nio.charset.CharacterCodingException) {
            return "not UTF-8 text";
        }
        String m = e.getMessage();
        return m == null || m.isBlank() || m.equals(file.toString()) ? e.getClass().getSimpleName() : m;
    }
}
