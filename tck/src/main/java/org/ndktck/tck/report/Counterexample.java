package org.ndktck.tck.report;

import java.math.BigInteger;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The memory-region fields of a counterexample, read from the failure message and the falsifying sample.
 * The kit writes them as {@code Name=value} (or {@code Name: value}), hex with {@code 0x} or decimal, all
 * unsigned. Recognised names (case-sensitive, so an {@code NdkSge}'s {@code length=} is not the region's
 * Length), with aliases:
 * <ul>
 *   <li>{@code PAGE_SIZE} (PageSize), in bytes;</li>
 *   <li>{@code AdapterPageCount} (PageCount), pages of the page array;</li>
 *   <li>{@code FBO} (FirstByteOffset), bytes into the first page;</li>
 *   <li>{@code Length}, bytes of the region;</li>
 *   <li>{@code BaseVirtualAddress} (BaseVA), the region's first byte as a remote peer addresses it;</li>
 *   <li>{@code VA} (VirtualAddress, MdlVa), the MDL virtual address of an NdkRegisterMr region;</li>
 *   <li>{@code RemoteAddress} (AccessAddress, RemoteVA), the address of the access that went wrong;</li>
 *   <li>{@code AccessLength} (AccessBytes), its length in bytes;</li>
 *   <li>{@code Access=read|write}, its direction.</li>
 * </ul>
 * The first occurrence of a name wins. A name that is the operand of an expression ({@code mod PAGE_SIZE = 0x1},
 * {@code FBO + Length = ...}) is not a field: its value is the expression's.
 *
 * @param fields the numeric fields found, by canonical name
 * @param access "read", "write" or null
 */
public record Counterexample(Map<String, BigInteger> fields, String access) {

    private static final Map<String, String> ALIASES = new LinkedHashMap<>();

    static {
        alias("PAGE_SIZE", "PAGE_SIZE", "PageSize");
        alias("AdapterPageCount", "AdapterPageCount", "PageCount");
        alias("FBO", "FBO", "FirstByteOffset");
        alias("BaseVirtualAddress", "BaseVirtualAddress", "BaseVA");
        alias("RemoteAddress", "RemoteAddress", "AccessAddress", "RemoteVA");
        alias("AccessLength", "AccessLength", "AccessBytes");
        alias("Length", "Length");
        alias("VA", "VA", "VirtualAddress", "MdlVa");
    }

    private static final Pattern FIELD = Pattern.compile("(?<![A-Za-z0-9_])(" + String.join("|", ALIASES.keySet())
            + ")\\s*[=:]\\s*(0[xX][0-9A-Fa-f_]+|\\d+)(?![A-Za-z0-9_])");
    /** Text just before a name that makes it an operand, not a field ({@code mod PAGE_SIZE}, {@code FBO + Length}). */
    private static final Pattern OPERATOR_BEFORE = Pattern.compile("(?:\\bmod|[-+*/%\u00D7\u2212])\\s*$");
    private static final Pattern ACCESS = Pattern.compile("(?<![A-Za-z0-9_])Access\\s*[=:]\\s*(read|write)",
            Pattern.CASE_INSENSITIVE);

    private static void alias(String canonical, String... names) {
        for (String n : names) {
            ALIASES.put(n, canonical);
        }
    }

    /**
     * @param texts the failure message, the sample, ... (nulls allowed)
     * @return the fields found in them, first occurrence first
     */
    public static Counterexample parse(String... texts) {
        Map<String, BigInteger> f = new LinkedHashMap<>();
        String access = null;
        for (String t : texts) {
            if (t == null) {
                continue;
            }
            Matcher m = FIELD.matcher(t);
            while (m.find()) {
                if (OPERATOR_BEFORE.matcher(t.substring(Math.max(0, m.start() - 8), m.start())).find()) {
                    continue;
                }
                String canonical = canonical(m.group(1));
                if (canonical != null && !f.containsKey(canonical)) {
                    f.put(canonical, number(m.group(2)));
                }
            }
            Matcher a = ACCESS.matcher(t);
            if (access == null && a.find()) {
                access = a.group(1).toLowerCase(Locale.ROOT);
            }
        }
        return new Counterexample(f, access);
    }

    private static String canonical(String name) {
        return ALIASES.get(name);
    }

    /**
     * @param name  a canonical name
     * @param value its value when the texts do not give one (e.g. PAGE_SIZE of the run's adapter)
     * @return this counterexample with the field added when it is absent
     */
    public Counterexample withDefault(String name, BigInteger value) {
        if (value == null || fields.containsKey(name)) {
            return this;
        }
        Map<String, BigInteger> f = new LinkedHashMap<>(fields);
        f.put(name, value);
        return new Counterexample(f, access);
    }

    private static BigInteger number(String text) {
        String t = text.replace("_", "");
        return t.startsWith("0x") || t.startsWith("0X") ? new BigInteger(t.substring(2), 16) : new BigInteger(t);
    }

    /**
     * @param name a canonical name
     * @return its value
     */
    public Optional<BigInteger> get(String name) {
        return Optional.ofNullable(fields.get(name));
    }

    /** @return true when there is enough to draw: a Length and where the region starts (FBO, BaseVirtualAddress or VA) */
    public boolean drawable() {
        return fields.containsKey("Length")
                && (fields.containsKey("FBO") || fields.containsKey("BaseVirtualAddress") || fields.containsKey("VA"));
    }
}
