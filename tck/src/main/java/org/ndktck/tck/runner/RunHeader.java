package org.ndktck.tck.runner;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The configuration header {@code run} prints before its properties: one "name  value" line each for the kit, the
 * provider (its name and what it is), provider jars, effective settings (those the user did not give marked
 * "(default)"), NDK_ADAPTER_INFO with PAGE_SIZE (bytes), the transport and how TR-1 is judged by it, seed, profile
 * and tries, the time budget (seconds), the rule selection, exclusions and the report directory. Reads a {@link
 * KitRunner.Prepared} run and changes nothing; NDK_ADAPTER_INFO is read once within the call bound ({@link
 * KitRunner.Prepared#adapterInfo}), and a provider that cannot give it gets a line saying why.
 */
final class RunHeader {
    private RunHeader() {
    }

    /**
     * @param p the prepared run
     * @return the effective configuration, one "name  value" line each, for the console
     */
    static List<String> lines(KitRunner.Prepared p) {
        List<String> l = new ArrayList<>();
        l.add("kit          ndk-tck " + KitVersion.get() + ", catalog of " + p.catalog.rules().size() + " rules, "
                + p.all.size() + " properties" + (p.options.kitPackage().equals(KitDiscovery.KIT_PACKAGE) ? ""
                : " in " + p.options.kitPackage()));
        l.add("provider     " + providerLine(p));
        if (!p.options.providerJars().isEmpty()) {
            l.add("jars         " + p.options.providerJars().stream().map(Path::toString).collect(Collectors.joining(", ")));
        }
        Map<String, String> eff = p.effectiveSettings();
        l.add("settings     " + (eff.isEmpty() ? "(none)" : eff.entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue() + (p.options.settings().containsKey(e.getKey()) ? "" : " (default)"))
                .collect(Collectors.joining(", "))));
        ProviderLoader.AdapterInfoResult ai = p.adapterInfo();
        l.add("adapter      " + (ai.info() != null ? AdapterInfoView.line(ai.info()) + ", PAGE_SIZE " + p.put.pageSize()
                : "NDK_ADAPTER_INFO unavailable: " + ai.error()));
        if (ai.info() != null) {
            l.add("transport    " + transportLine(p.put.transport()));
        }
        l.add("seed         " + p.seed + (p.options.seed() == null ? " (random; pass --seed " + p.seed + " to replay)" : ""));
        l.add("profile      " + p.options.profile().name().toLowerCase(Locale.ROOT) + ", "
                + (p.options.tries() != null ? p.options.tries() + " tries per property (--tries)"
                : "up to " + p.options.profile().tries() + " tries per property")
                + ", timeout factor " + p.options.timeoutFactor() + (p.options.strict() ? ", strict (ADVISORY fails)" : ""));
        if (p.options.timeBudgetMillis() != null) {
            l.add("time budget  " + KitRunner.Prepared.seconds(p.options.timeBudgetMillis())
                    + " s for the whole run: tries are spread over the "
                    + p.planned.size() + " " + Console.plural(p.planned.size(), "property", "properties")
                    + "; a property whose share runs out ends early and is marked budget-limited");
        }
        String sel = p.selected.size() + " of " + p.catalog.rules().size() + " rules selected"
                + (p.options.rules() == null ? "" : " by --rules " + p.options.rules())
                + (p.options.shard() == null ? "" : " in shard " + p.options.shard())
                + "; " + p.runRules.size() + " with properties to run (" + p.planned.size() + " "
                + Console.plural(p.planned.size(), "property", "properties") + ")";
        l.add("rules        " + sel);
        for (Exclusions.Entry e : p.exclusions.expired(p.options.today())) {
            l.add("exclusion    EXPIRED on " + e.expires() + ", ignored: " + e.pattern() + " (" + e.reason() + ")");
        }
        p.excluded.forEach((id, e) -> l.add("exclusion    " + id + " excluded until " + e.expires() + ": " + e.reason()));
        l.add("report dir   " + p.options.reportDir());
        return l;
    }

    /**
     * @param p the prepared run
     * @return the provider's name and what it is: for a fault or legal provider of the catalogue its
     *     description (they are variants of the reference provider, whose class says nothing), else its class
     *     and description
     */
    static String providerLine(KitRunner.Prepared p) {
        String name = p.options.provider();
        boolean variant = p.provider.name().startsWith("fault:") || p.provider.name().startsWith("legal:");
        boolean described = !p.provider.description().equals(p.provider.name());
        if (variant) {
            return name + (described ? ": " + p.provider.description() : "");
        }
        return name + " (" + p.provider.getClass().getName() + ")" + (described ? ": " + p.provider.description() : "");
    }

    /** The configuration header's transport line: what the adapter declares and how TR-1 is judged by it. */
    static String transportLine(org.ndktck.spec.NdkRdmaTechnology t) {
        return switch (t) {
            case IWARP -> "IWARP (NDK_ADAPTER_INFO.RdmaTechnology): a send that finds no receive may end the connection (TR-1)";
            case UNDEFINED -> "UNDEFINED (the provider does not declare RdmaTechnology; judged as INFINIBAND: a send that "
                    + "finds no receive waits, TR-1)";
            default -> t.name() + " (NDK_ADAPTER_INFO.RdmaTechnology): a send that finds no receive waits for one (TR-1)";
        };
    }
}
