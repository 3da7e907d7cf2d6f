package org.ndktck.spec.rules;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Optional;

/**
 * The page audit: the in-scope NDKPI pages read sentence by sentence, each statement that binds the
 * provider or the consumer mapped to the catalog rules that hold it, or given the reason why none does. It is
 * read from the YAML resource {@value #RESOURCE}; {@link PageAuditValidator} checks it against the catalog and
 * {@code spec/RULES.md} shows it per page ({@link RulesMarkdown}).
 */
public final class PageAudit {
    /** Classpath location of the audit file. */
    public static final String RESOURCE = "/org/ndktck/spec/rules/audit.yaml";

    /** The file's shape. */
    record AuditFile(List<AuditedPage> pages) {
    }

    private static volatile PageAudit standard;

    private final List<AuditedPage> pages;

    private PageAudit(List<AuditedPage> pages) {
        this.pages = pages == null ? List.of() : List.copyOf(pages);
    }

    /**
     * @return the audit shipped in this jar (loaded once)
     * @throws UncheckedIOException when the resource is missing or malformed
     */
    public static PageAudit standard() {
        PageAudit a = standard;
        if (a == null) {
            try (InputStream in = PageAudit.class.getResourceAsStream(RESOURCE)) {
                if (in == null) {
                    throw new UncheckedIOException(new IOException("missing " + RESOURCE));
                }
                a = read(in);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            standard = a;
        }
        return a;
    }

    /**
     * @param pages the pages, in audit order (null means none)
     * @return an audit built in memory (tests, tools); not validated
     */
    public static PageAudit of(List<AuditedPage> pages) {
        return new PageAudit(pages);
    }

    /** @return an audit of no page (renders no audit section) */
    public static PageAudit empty() {
        return new PageAudit(List.of());
    }

    /**
     * @param in YAML in the audit's shape
     * @return the audit
     * @throws IOException when it cannot be parsed
     */
    public static PageAudit read(InputStream in) throws IOException {
        ObjectMapper mapper = new ObjectMapper(new YAMLFactory())
                .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, true);
        return new PageAudit(mapper.readValue(in, AuditFile.class).pages());
    }

    /** @return the audited pages, in audit order */
    public List<AuditedPage> pages() {
        return pages;
    }

    /**
     * @param page a page in source notation, e.g. {@code D:fast_register}
     * @return the audit of that page, if it was audited
     */
    public Optional<AuditedPage> find(String page) {
        return pages.stream().filter(p -> p.page().equals(page)).findFirst();
    }

    /** @return the number of statements over all pages */
    public long statementCount() {
        return pages.stream().mapToLong(p -> p.statements().size()).sum();
    }

    /** @return the number of statements some rule holds, over all pages */
    public long coveredCount() {
        return pages.stream().mapToLong(AuditedPage::coveredCount).sum();
    }
}
