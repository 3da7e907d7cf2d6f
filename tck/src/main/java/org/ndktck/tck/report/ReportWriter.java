package org.ndktck.tck.report;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Writes the reports of a run into the report directory:
 * <ul>
 *   <li>{@value #JSON} ({@link RunReport});</li>
 *   <li>{@value #HTML} (one self-contained file, {@link HtmlReport});</li>
 *   <li>{@value #JUNIT} (one test case per rule, {@link JUnitXmlReport}).</li>
 * </ul>
 * The platform's own legacy XML report of the properties goes to {@code junit-platform/} (written by the
 * runner while the properties run). Each file is written to a temporary name and moved into place, so a
 * reader never sees half a report.
 */
public final class ReportWriter {
    /** File name of the JSON report. */
    public static final String JSON = "report.json";
    /** File name of the HTML report. */
    public static final String HTML = "report.html";
    /** Path of the JUnit XML report of rules, relative to the report directory. */
    public static final String JUNIT = "junit/TEST-ndk-tck.xml";

    private static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private ReportWriter() {
    }

    /** @return the mapper used for every JSON file of the runner */
    public static ObjectMapper mapper() {
        return MAPPER;
    }

    /**
     * @param report the report
     * @param dir    the report directory (created if missing)
     * @param full   whether to write HTML and JUnit XML too
     * @throws IOException when a file cannot be written
     */
    public static void write(RunReport report, Path dir, boolean full) throws IOException {
        Files.createDirectories(dir);
        writeAtomically(dir.resolve(JSON), MAPPER.writeValueAsString(report));
        if (full) {
            writeAtomically(dir.resolve(HTML), HtmlReport.render(report));
            Path junit = dir.resolve(JUNIT);
            Files.createDirectories(junit.getParent());
            writeAtomically(junit, JUnitXmlReport.render(report));
        }
    }

    /**
     * @param file a report.json, or a directory holding one
     * @return the report
     * @throws IOException when it is missing or not a report
     */
    public static RunReport read(Path file) throws IOException {
        Path f = Files.isDirectory(file) ? file.resolve(JSON) : file;
        RunReport r = MAPPER.readValue(f.toFile(), RunReport.class);
        if (r == null || r.rules() == null || r.rules().isEmpty()) {
            throw new IOException(f + " holds no rules");
        }
        return r;
    }

    /**
     * @param file target
     * @param text content (UTF-8)
     * @throws IOException when it cannot be written
     */
    public static void writeAtomically(Path file, String text) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.writeString(tmp, text, StandardCharsets.UTF_8);
        try {
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
        }
    }
}
