package org.ndktck.tck.runner;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Builds the exact {@code ./ndk-tck run ...} command that replays a run or one rule of it: the same
 * provider, provider jars, settings, profile, tries and timeout factor, the rule, and the run seed (each
 * property's seed derives from the run seed and the property's name, so one rule replays alone).
 */
public final class Replay {
    private static final Pattern SAFE = Pattern.compile("[A-Za-z0-9_@%+=:,./*-]+");

    private Replay() {
    }

    /**
     * @param provider      provider name
     * @param jars          provider jars
     * @param settings      settings as given with {@code --set}
     * @param profile       profile name (lower case)
     * @param tries         the tries override, or null
     * @param timeoutFactor the timeout factor
     * @param kitPackage    the property package (only written when it is not the kit's)
     * @param rules         the rule pattern, or null
     * @param seed          the run seed
     * @return the command, shell-quoted
     */
    public static String command(String provider, List<Path> jars, Map<String, String> settings, String profile,
                                 Integer tries, double timeoutFactor, String kitPackage, String rules, long seed) {
        List<String> w = new ArrayList<>(List.of("./ndk-tck", "run", "--provider", provider));
        for (Path j : jars) {
            w.add("--provider-jar");
            w.add(j.toString());
        }
        settings.forEach((k, v) -> {
            w.add("--set");
            w.add(k + "=" + v);
        });
        if (rules != null && !rules.isBlank()) {
            w.add("--rules");
            w.add(rules);
        }
        w.add("--seed");
        w.add(Long.toString(seed));
        if (profile != null && !profile.equalsIgnoreCase("standard")) {
            w.add("--profile");
            w.add(profile.toLowerCase(java.util.Locale.ROOT));
        }
        if (tries != null) {
            w.add("--tries");
            w.add(Integer.toString(tries));
        }
        if (timeoutFactor != 1.0) {
            w.add("--timeout-factor");
            w.add(Double.toString(timeoutFactor));
        }
        if (kitPackage != null && !kitPackage.equals(KitDiscovery.KIT_PACKAGE)) {
            w.add("--kit-package");
            w.add(kitPackage);
        }
        StringBuilder sb = new StringBuilder();
        for (String s : w) {
            if (sb.length() > 0) {
                sb.append(' ');
            }
            sb.append(quote(s));
        }
        return sb.toString();
    }

    /**
     * @param word one shell word
     * @return it, single-quoted when it holds characters a POSIX shell would interpret
     */
    public static String quote(String word) {
        if (!word.isEmpty() && SAFE.matcher(word).matches() && !word.contains("*")) {
            return word;
        }
        return "'" + word.replace("'", "'\\''") + "'";
    }
}
