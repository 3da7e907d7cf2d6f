package org.ndktck.spec.rules;

import java.util.List;

/**
 * One normative statement of an NDKPI page, as the page audit records it: the statement in the kit's
 * own words, and either the catalog rules that hold it or the reason why none does.
 *
 * @param says   the statement, paraphrased (never the page's sentence)
 * @param binds  whom it binds: PROVIDER, CONSUMER or BOTH
 * @param rules  the IDs of the catalog rules that hold it; empty when {@code reason} says why none does
 * @param reason why no rule holds it (outside the memory-region area, not normative, ...); null or blank when
 *               {@code rules} is not empty
 */
public record AuditStatement(String says, Binds binds, List<String> rules, String reason) {
    /** Normalizes a null list. */
    public AuditStatement {
        rules = rules == null ? List.of() : List.copyOf(rules);
    }

    /** @return true when at least one catalog rule holds the statement */
    public boolean covered() {
        return !rules.isEmpty();
    }
}
