package org.ndktck.spec.rules;

import java.util.List;

/**
 * One NDKPI page as the page audit read it: every statement on it that binds the provider or the
 * consumer, and the rules that cite the page for what it leaves open.
 *
 * @param page       the page in the catalog's source notation ({@code D:fast_register},
 *                   {@code N:ndkpi-object-lifetime-requirements.md}, {@code S})
 * @param title      the function or structure the page documents, e.g. {@code NdkFastRegister}
 * @param path       the page's file: repository and path, e.g.
 *                   {@code MicrosoftDocs/windows-driver-docs-ddi:wdk-ddi-src/content/ndkpi/nc-ndkpi-ndk_fn_fast_register.md}
 * @param statements its statements, in page order
 * @param kitRules   catalog rules that cite the page for a question it leaves open (kit interpretations such as
 *                   MR-FR-14, zero Length): they hold no statement of the page, yet name it as their source
 * @param readFrom    where the text the audit paraphrases was read: the mirror and its commit (for example
 *                    {@code windows-driver-docs-ddi@6dcd4d9f2a}), or the rendering it came from when no mirror holds
 *                    the page
 * @param lastChanged the date (YYYY-MM-DD) of the last change to the page's text in that source ({@code git log} of
 *                    the page), so a newer page is noticed; {@code unknown} where the source has no history
 */
public record AuditedPage(String page, String title, String path, List<AuditStatement> statements,
                          List<String> kitRules, String readFrom, String lastChanged) {

    /** A page without the record of where it was read (the audit's form before those fields). */
    public AuditedPage(String page, String title, String path, List<AuditStatement> statements, List<String> kitRules) {
        this(page, title, path, statements, kitRules, null, null);
    }

    /** Normalizes null lists. */
    public AuditedPage {
        statements = statements == null ? List.of() : List.copyOf(statements);
        kitRules = kitRules == null ? List.of() : List.copyOf(kitRules);
    }

    /** @return how many of its statements at least one rule holds */
    public long coveredCount() {
        return statements.stream().filter(AuditStatement::covered).count();
    }
}
