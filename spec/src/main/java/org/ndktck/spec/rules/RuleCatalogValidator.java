package org.ndktck.spec.rules;

import org.ndktck.spec.NdkAdapterFlags;
import org.ndktck.spec.NtStatus;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Checks that a catalog is well formed (design section 4): the structural rules every tool that reads the
 * catalog relies on. The spec's tests require the shipped catalog to pass; the runner and the kit's
 * build-time test may call it too.
 *
 * <p>What it checks, one message per problem:
 * <ul>
 *   <li>rule IDs match {@value #RULE_ID} and are unique; ambiguity IDs match {@value #AMBIGUITY_ID} and are
 *       unique;</li>
 *   <li>every text field of a rule (title, function, group, statement, howChecked, source) and of an
 *       ambiguity (title, both readings, chosen) is non-blank, every enum field is set, and an ambiguity
 *       lists at least one source;</li>
 *   <li>every {@code allowedStatuses} entry is the name of an {@link NtStatus} constant;</li>
 *   <li>every {@code ambiguities} entry names an entry of the register;</li>
 *   <li>every {@code requires} entry is {@code ADAPTER_FLAG:<name>} with a constant name of
 *       {@link NdkAdapterFlags}, or {@code NDK_VERSION:<major>.<minor>};</li>
 *   <li>a PROVIDER_PROPERTY rule does not bind only the consumer, and a CONSUMER_OBLIGATION rule does not
 *       bind only the provider;</li>
 *   <li>the rules of one group are consecutive in the file (so the rendering keeps catalog order).</li>
 * </ul>
 */
public final class RuleCatalogValidator {
    /** The form of a rule ID: upper-case words joined by hyphens, then a number (MR-FR-4, LAM-REL-1). */
    public static final String RULE_ID = "^[A-Z]+(-[A-Z]+)*-\\d+$";
    /** The form of an ambiguity ID. */
    public static final String AMBIGUITY_ID = "^AMB-\\d+$";
    /** Prefix of an adapter-flag capability in {@link Rule#requires()}. */
    public static final String ADAPTER_FLAG_PREFIX = "ADAPTER_FLAG:";
    /** Prefix of a minimum-NDKPI-version capability in {@link Rule#requires()}. */
    public static final String NDK_VERSION_PREFIX = "NDK_VERSION:";

    private static final Pattern RULE_ID_PATTERN = Pattern.compile(RULE_ID);
    private static final Pattern AMBIGUITY_ID_PATTERN = Pattern.compile(AMBIGUITY_ID);
    private static final Pattern VERSION_PATTERN = Pattern.compile("^\\d+\\.\\d+$");

    private RuleCatalogValidator() {
    }

    /**
     * @param catalog a catalog
     * @return a human-readable message per problem, in file order; empty when the catalog is well formed
     */
    public static List<String> problems(RuleCatalog catalog) {
        List<String> out = new ArrayList<>();
        Set<String> statusNames = constantNames(NtStatus.class, NtStatus.class);
        Set<String> flagNames = constantNames(NdkAdapterFlags.class, int.class);

        Set<String> ambiguityIds = new HashSet<>();
        for (Ambiguity a : catalog.ambiguities()) {
            String where = "ambiguity " + a.id();
            if (a.id() == null || !AMBIGUITY_ID_PATTERN.matcher(a.id()).matches()) {
                out.add(where + ": ID is not of the form AMB-n");
            } else if (!ambiguityIds.add(a.id())) {
                out.add(where + ": duplicate ID");
            }
            blank(out, where, "title", a.title());
            blank(out, where, "readingA", a.readingA());
            blank(out, where, "readingB", a.readingB());
            blank(out, where, "chosen", a.chosen());
            if (a.sources().isEmpty() || a.sources().stream().anyMatch(RuleCatalogValidator::isBlank)) {
                out.add(where + ": sources must list at least one non-blank source");
            }
        }

        Set<String> ruleIds = new HashSet<>();
        Set<String> closedGroups = new LinkedHashSet<>();
        String currentGroup = null;
        for (Rule r : catalog.rules()) {
            String where = "rule " + r.id();
            if (r.id() == null || !RULE_ID_PATTERN.matcher(r.id()).matches()) {
                out.add(where + ": ID does not match " + RULE_ID);
            } else if (!ruleIds.add(r.id())) {
                out.add(where + ": duplicate ID");
            }
            blank(out, where, "title", r.title());
            blank(out, where, "function", r.function());
            blank(out, where, "group", r.group());
            blank(out, where, "statement", r.statement());
            blank(out, where, "howChecked", r.howChecked());
            blank(out, where, "source", r.source());
            if (r.binds() == null) {
                out.add(where + ": binds is missing");
            }
            if (r.strength() == null) {
                out.add(where + ": strength is missing");
            }
            if (r.guards() != null && r.basis() != Basis.KIT_INTERPRETATION) {
                out.add(where + ": guards is only for a rule of basis KIT_INTERPRETATION (a stated rule FAILs anyway)");
            }
            if (r.basis() == null) {
                out.add(where + ": basis is missing");
            }
            if (r.check() == null) {
                out.add(where + ": check is missing");
            }
            for (String s : r.allowedStatuses()) {
                if (!statusNames.contains(s)) {
                    out.add(where + ": allowedStatuses entry '" + s + "' is not an NtStatus constant");
                }
            }
            for (String a : r.ambiguities()) {
                if (catalog.findAmbiguity(a).isEmpty()) {
                    out.add(where + ": ambiguity '" + a + "' is not in the register");
                }
            }
            for (String q : r.requires()) {
                String problem = requiresProblem(q, flagNames);
                if (problem != null) {
                    out.add(where + ": requires entry '" + q + "' " + problem);
                }
            }
            if (r.check() == Check.PROVIDER_PROPERTY && r.binds() == Binds.CONSUMER) {
                out.add(where + ": a PROVIDER_PROPERTY rule must bind PROVIDER or BOTH");
            }
            if (r.check() == Check.CONSUMER_OBLIGATION && r.binds() == Binds.PROVIDER) {
                out.add(where + ": a CONSUMER_OBLIGATION rule must bind CONSUMER or BOTH");
            }
            duplicates(out, where, "allowedStatuses", r.allowedStatuses());
            duplicates(out, where, "ambiguities", r.ambiguities());
            duplicates(out, where, "requires", r.requires());
            if (r.group() != null && !r.group().equals(currentGroup)) {
                if (currentGroup != null) {
                    closedGroups.add(currentGroup);
                }
                if (closedGroups.contains(r.group())) {
                    out.add(where + ": group '" + r.group() + "' appears again after another group");
                }
                currentGroup = r.group();
            }
        }
        return out;
    }

    /**
     * @param requirement a {@link Rule#requires()} entry
     * @param flagNames   the constant names of {@link NdkAdapterFlags}
     * @return why it is malformed, or null when it is well formed
     */
    private static String requiresProblem(String requirement, Set<String> flagNames) {
        if (requirement == null) {
            return "is null";
        }
        if (requirement.startsWith(ADAPTER_FLAG_PREFIX)) {
            String flag = requirement.substring(ADAPTER_FLAG_PREFIX.length());
            return flagNames.contains(flag) ? null : "names no NdkAdapterFlags constant (known: " + flagNames + ")";
        }
        if (requirement.startsWith(NDK_VERSION_PREFIX)) {
            String version = requirement.substring(NDK_VERSION_PREFIX.length());
            return VERSION_PATTERN.matcher(version).matches() ? null : "is not NDK_VERSION:<major>.<minor>";
        }
        return "is neither " + ADAPTER_FLAG_PREFIX + "<flag> nor " + NDK_VERSION_PREFIX + "<major>.<minor>";
    }

    /** @return the names of the public static final fields of {@code owner} whose type is {@code type} */
    static Set<String> constantNames(Class<?> owner, Class<?> type) {
        Set<String> names = new LinkedHashSet<>();
        for (Field f : owner.getFields()) {
            int m = f.getModifiers();
            if (Modifier.isStatic(m) && Modifier.isFinal(m) && f.getType() == type) {
                names.add(f.getName());
            }
        }
        return names;
    }

    private static void blank(List<String> out, String where, String field, String value) {
        if (isBlank(value)) {
            out.add(where + ": " + field + " is blank");
        }
    }

    private static void duplicates(List<String> out, String where, String field, List<String> values) {
        if (new HashSet<>(values).size() != values.size()) {
            out.add(where + ": " + field + " lists an entry twice");
        }
    }

    private static boolean isBlank(String s) {
        return s == null || s.isBlank();
    }
}
