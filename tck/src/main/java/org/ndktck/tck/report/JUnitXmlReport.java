package org.ndktck.tck.report;

import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;

/**
 * The JUnit XML report of rules, in the shape Surefire writes and CI readers (Jenkins, GitLab, GitHub
 * actions) accept: one {@code <testsuite>}, one {@code <testcase>} per rule (name = rule ID, classname =
 * {@code ndk-tck.<function>}), with
 * <ul>
 *   <li>FAIL as {@code <failure message type>} carrying the message, counterexample, seed and replay command;</li>
 *   <li>ADVISORY as a passing test case with the finding in its {@code <system-out>} (a failure under
 *       {@code --strict});</li>
 *   <li>NOT_APPLICABLE, EXCLUDED, NOT_TESTABLE and UNTESTED as {@code <skipped message>} with the verdict
 *       and reason.</li>
 * </ul>
 * Rules outside the run's selection are left out unless another rule's property reported them.
 */
public final class JUnitXmlReport {
    private static final java.time.format.DateTimeFormatter TS = java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss");

    private JUnitXmlReport() {
    }

    /**
     * @param report the run
     * @return the XML document
     */
    public static String render(RunReport report) {
        List<RunReport.RuleReport> rules = report.rules().stream()
                .filter(r -> r.selected() || r.verdict().equals("FAIL") || r.verdict().equals("ADVISORY")).toList();
        int failures = 0;
        int skipped = 0;
        for (RunReport.RuleReport r : rules) {
            if (failing(r, report.strict())) {
                failures++;
            } else if (skippedVerdict(r.verdict())) {
                skipped++;
            }
        }
        StringWriter sw = new StringWriter();
        try {
            XMLStreamWriter w = XMLOutputFactory.newInstance().createXMLStreamWriter(sw);
            w.writeStartDocument("UTF-8", "1.0");
            nl(w, 0);
            w.writeStartElement("testsuite");
            w.writeAttribute("name", "ndk-tck." + clean(report.provider() == null ? "provider" : report.provider().name()));
            w.writeAttribute("tests", Integer.toString(rules.size()));
            w.writeAttribute("failures", Integer.toString(failures));
            w.writeAttribute("errors", "0");
            w.writeAttribute("skipped", Integer.toString(skipped));
            w.writeAttribute("time", seconds(report.durationMillis()));
            w.writeAttribute("timestamp", timestamp(report.startedAt()));
            w.writeAttribute("hostname", hostname());
            nl(w, 1);
            w.writeStartElement("properties");
            prop(w, "ndk.tck.kit.version", report.kit() == null ? "" : report.kit().version());
            if (report.provider() != null) {
                prop(w, "ndk.tck.provider", report.provider().name());
                report.provider().settings().forEach((k, v) -> {
                    try {
                        prop(w, "ndk.tck.set." + k, v);
                    } catch (XMLStreamException e) {
                        throw new IllegalStateException(e);
                    }
                });
            }
            prop(w, "ndk.tck.seed", Long.toString(report.seed()));
            prop(w, "ndk.tck.profile", report.profile());
            prop(w, "ndk.tck.strict", Boolean.toString(report.strict()));
            prop(w, "ndk.tck.replay", report.replay());
            nl(w, 1);
            w.writeEndElement();
            for (RunReport.RuleReport r : rules) {
                nl(w, 1);
                boolean fails = failing(r, report.strict());
                boolean body = fails || skippedVerdict(r.verdict()) || r.verdict().equals("ADVISORY");
                if (body) {
                    w.writeStartElement("testcase");
                } else {
                    w.writeEmptyElement("testcase");
                }
                w.writeAttribute("name", r.id());
                w.writeAttribute("classname", "ndk-tck." + clean(r.function() == null || r.function().isBlank() ? "rules" : r.function()));
                w.writeAttribute("time", seconds(r.durationMillis()));
                if (!body) {
                    continue;
                }
                if (fails) {
                    nl(w, 2);
                    w.writeStartElement("failure");
                    w.writeAttribute("message", text(firstLine(r.verdict() + " " + r.id() + " (" + r.strength() + "): " + nz(r.message()))));
                    w.writeAttribute("type", r.verdict() + "." + r.strength());
                    w.writeCharacters(text(details(r, report)));
                    w.writeEndElement();
                } else if (skippedVerdict(r.verdict())) {
                    nl(w, 2);
                    w.writeEmptyElement("skipped");
                    w.writeAttribute("message", text(r.verdict() + ": " + nz(r.message())));
                } else {
                    nl(w, 2);
                    w.writeStartElement("system-out");
                    w.writeCharacters(text("ADVISORY " + r.id() + " (" + r.strength() + "): " + details(r, report)));
                    w.writeEndElement();
                }
                nl(w, 1);
                w.writeEndElement();
            }
            nl(w, 1);
            w.writeStartElement("system-out");
            w.writeCharacters(text("replay: " + report.replay() + "\n" + String.join("\n", report.notes())));
            w.writeEndElement();
            nl(w, 0);
            w.writeEndElement();
            w.writeEndDocument();
            w.close();
        } catch (XMLStreamException e) {
            throw new IllegalStateException("cannot render JUnit XML", e);
        }
        return sw.toString() + "\n";
    }

    private static boolean failing(RunReport.RuleReport r, boolean strict) {
        return r.verdict().equals("FAIL") || (strict && r.verdict().equals("ADVISORY"));
    }

    private static boolean skippedVerdict(String v) {
        return v.equals("NOT_APPLICABLE") || v.equals("EXCLUDED") || v.equals("NOT_TESTABLE") || v.equals("UNTESTED");
    }

    private static String details(RunReport.RuleReport r, RunReport report) {
        StringBuilder sb = new StringBuilder();
        sb.append(nz(r.message()));
        if (r.counterexample() != null) {
            sb.append("\ncounterexample: ").append(r.counterexample());
        }
        sb.append("\nseed: run ").append(report.seed());
        if (r.seed() != null) {
            sb.append(", property seed ").append(r.seed());
        }
        if (r.replay() != null) {
            sb.append("\nreplay: ").append(r.replay());
        }
        return sb.toString();
    }

    private static void prop(XMLStreamWriter w, String name, String value) throws XMLStreamException {
        nl(w, 2);
        w.writeEmptyElement("property");
        w.writeAttribute("name", name);
        w.writeAttribute("value", text(nz(value)));
    }

    private static void nl(XMLStreamWriter w, int depth) throws XMLStreamException {
        w.writeCharacters("\n" + "  ".repeat(depth));
    }

    private static String seconds(long millis) {
        return String.format(Locale.ROOT, "%.3f", millis / 1000.0);
    }

    private static String timestamp(String instant) {
        try {
            return LocalDateTime.ofInstant(Instant.parse(instant), ZoneId.systemDefault()).format(TS);
        } catch (DateTimeParseException | NullPointerException e) {
            return LocalDateTime.now().format(TS);
        }
    }

    private static String hostname() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (Exception e) {
            return "localhost";
        }
    }

    private static String clean(String s) {
        return s.replaceAll("[^A-Za-z0-9_.:-]+", "_");
    }

    private static String firstLine(String s) {
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }

    /** Drops characters XML 1.0 cannot carry. */
    static String text(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        s.codePoints().forEach(c -> {
            if (c == 0x9 || c == 0xA || c == 0xD || (c >= 0x20 && c <= 0xD7FF) || (c >= 0xE000 && c <= 0xFFFD) || c >= 0x10000) {
                sb.appendCodePoint(c);
            } else {
                sb.append('?');
            }
        });
        return sb.toString();
    }
}
