package org.ndktck.tck.runner;

import org.ndktck.spec.NdkProvider;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A provider's settings as {@code run --set help=1} and {@code providers --settings} print them: one line per key
 * with the provider's own description of its values and default ({@link NdkProvider#settingDescriptions()}).
 */
final class SettingsHelp {
    private SettingsHelp() {
    }

    /** The {@code --set} key that asks for this list instead of a run, unless the provider has a setting of that name. */
    static final String KEY = "help";

    /**
     * @param settings the {@code --set} pairs
     * @param provider the provider they are for
     * @return whether they ask for the provider's settings rather than a run
     */
    static boolean asked(Map<String, String> settings, NdkProvider provider) {
        return settings.containsKey(KEY) && !provider.settingDescriptions().containsKey(KEY);
    }

    /**
     * @param provider a provider
     * @param indent   spaces before each line
     * @return one line per setting, {@code key  values and default}, in the provider's order; one line saying so when
     *     it takes none
     */
    static List<String> lines(NdkProvider provider, int indent) {
        Map<String, String> d = provider.settingDescriptions();
        List<String> out = new ArrayList<>();
        if (d.isEmpty()) {
            out.add(" ".repeat(indent) + "(no settings)");
            return out;
        }
        int w = d.keySet().stream().mapToInt(String::length).max().orElse(1);
        d.forEach((k, v) -> out.add(" ".repeat(indent) + String.format(java.util.Locale.ROOT, "%-" + w + "s  %s", k, v)));
        return out;
    }
}
