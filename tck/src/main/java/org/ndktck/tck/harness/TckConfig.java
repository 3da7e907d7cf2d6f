package org.ndktck.tck.harness;

import java.security.SecureRandom;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The configuration of one kit run, read from JUnit Platform configuration parameters and, where a key
 * is absent, from Java system properties of the same name (docs/ARCHITECTURE.md, "Configuration of a
 * kit run"). The keys are a contract: {@code ndk.tck.provider}, {@code ndk.tck.set.<KEY>},
 * {@code ndk.tck.seed}, {@code ndk.tck.profile}, {@code ndk.tck.tries}, {@code ndk.tck.timeoutFactor}.
 *
 * @param provider      provider short name or class name
 * @param settings      provider settings, sorted by key
 * @param seed          the run seed; every property's seed derives from it and the property's name
 * @param seedGiven     whether the user fixed the seed (otherwise it was drawn at random)
 * @param profile       smoke, standard or deep
 * @param tries         tries per property that override the profile, or empty
 * @param timeoutFactor multiplies every time bound, &gt; 0
 */
public record TckConfig(String provider, Map<String, String> settings, long seed, boolean seedGiven,
                        Profile profile, Optional<Integer> tries, double timeoutFactor) {

    /** Key of the provider name. */
    public static final String PROVIDER = "ndk.tck.provider";
    /** Prefix of provider settings: {@code ndk.tck.set.completion=pending}. */
    public static final String SET_PREFIX = "ndk.tck.set.";
    /** Key of the run seed (a long). */
    public static final String SEED = "ndk.tck.seed";
    /** Key of the profile. */
    public static final String PROFILE = "ndk.tck.profile";
    /** Key of the tries override. */
    public static final String TRIES = "ndk.tck.tries";
    /** Key of the timeout factor. */
    public static final String TIMEOUT_FACTOR = "ndk.tck.timeoutFactor";

    /** How thorough a run is. */
    public enum Profile {
        /** A quick look: 50 tries a property. */
        SMOKE(50),
        /** The default gate: 1000 tries a property. */
        STANDARD(1000),
        /** A long search: 10000 tries a property. */
        DEEP(10000);

        private final int tries;

        Profile(int tries) {
            this.tries = tries;
        }

        /** @return the tries of a property with no smaller natural space */
        public int tries() {
            return tries;
        }

        /**
         * The tries of a property that declares its own count (deep is deeper: every property's tries grow with
         * the profile). The declared count is the standard profile's; smoke runs half of it (at least 1, at most
         * 50), deep ten times it (at most 10000). A property without parameters runs once whatever the count.
         *
         * @param declared the tries the property declares (its standard-profile count), at least 1
         * @return the tries at this profile: smoke &lt; standard &lt; deep wherever the declared count allows
         */
        public int tries(int declared) {
            int d = Math.max(1, declared);
            return switch (this) {
                case SMOKE -> Math.min(SMOKE.tries, Math.max(1, d / 2));
                case STANDARD -> Math.min(STANDARD.tries, d);
                case DEEP -> (int) Math.min(DEEP.tries, 10L * d);
            };
        }

        /**
         * A size that grows with the profile (deep is deeper): the length of a stateful property's action
         * chains, the number of threads or calls of a concurrent try, the requests of a DEFER run. Smoke takes
         * half the standard size (at least 1), deep twice it.
         *
         * @param atStandard the size at the standard profile, at least 1
         * @return the size at this profile
         */
        public int size(int atStandard) {
            int n = Math.max(1, atStandard);
            return switch (this) {
                case SMOKE -> Math.max(1, n / 2);
                case STANDARD -> n;
                case DEEP -> 2 * n;
            };
        }

        /**
         * @param text smoke, standard or deep (any case)
         * @return the profile
         * @throws IllegalArgumentException for any other text
         */
        public static Profile parse(String text) {
            for (Profile p : values()) {
                if (p.name().equalsIgnoreCase(text.trim())) {
                    return p;
                }
            }
            throw new IllegalArgumentException("profile must be smoke, standard or deep, got '" + text + "'");
        }
    }

    private static volatile Function<String, Optional<String>> parameters = k -> Optional.empty();
    private static volatile TckConfig current;
    private static final long RANDOM_SEED = randomSeed();

    /** Random run seeds are drawn below this bound (2^53), so a JSON reader that holds numbers as doubles keeps them exact. */
    public static final long RANDOM_SEED_BOUND = 1L << 53;

    /**
     * Draws a random run seed in [0, 2^53): every such seed is exact as a JSON number in every reader (a
     * double holds integers up to 2^53 exactly), so {@code jq .seed} prints the seed that replays the run.
     * A seed the user gives ({@code --seed}, {@code ndk.tck.seed}) may be any long.
     *
     * @return a seed in [0, 2^53)
     */
    public static long randomSeed() {
        return new SecureRandom().nextLong() >>> 11;
    }

    /**
     * Installs the JUnit Platform configuration parameters of the running test plan (called by
     * {@link ConfigCapture}); the configuration is read again on next use.
     *
     * @param lookup parameter lookup
     */
    public static synchronized void useParameters(Function<String, Optional<String>> lookup) {
        parameters = lookup;
        current = null;
    }

    /**
     * @return the configuration in effect (parsed once per test plan)
     * @throws IllegalArgumentException when a value cannot be parsed (the message names the key)
     */
    public static TckConfig current() {
        TckConfig c = current;
        if (c == null) {
            synchronized (TckConfig.class) {
                c = current;
                if (c == null) {
                    c = read(TckConfig::lookup, System.getProperties().stringPropertyNames());
                    current = c;
                    warnIfSystemProviderIgnored();
                }
            }
        }
        return c;
    }

    private static void warnIfSystemProviderIgnored() {
        ignoredSystemProvider(System.getProperty(PROVIDER), parameters.apply(PROVIDER)).ifPresent(System.err::println);
    }

    /**
     * A test plan's configuration parameter (a suite's {@code @ConfigurationParameter}, the CLI's {@code --provider})
     * wins over a {@code -D} system property of the same key; when the two name different providers, the user who
     * typed the {@code -D} expects it to choose the provider under test, so the kit says that it did not.
     *
     * @param system the system property {@value #PROVIDER}, or null
     * @param plan   the test plan's configuration parameter of that key, if set
     * @return the warning line for standard error, when the system property names another provider
     */
    static Optional<String> ignoredSystemProvider(String system, Optional<String> plan) {
        if (system == null || system.isBlank() || plan.isEmpty() || plan.get().equals(system)) {
            return Optional.empty();
        }
        return Optional.of("ndk-tck: -D" + PROVIDER + "=" + system + " is ignored: the test plan's configuration "
                + "parameter (a @Suite's @ConfigurationParameter, or the command's --provider) names '" + plan.get()
                + "', and it wins; on the Maven route, remove it from the suite to choose the provider with -D");
    }

    /**
     * @param key a configuration parameter of the running test plan (or a system property of that name)
     * @return its value, if set
     */
    public static Optional<String> parameter(String key) {
        return lookup(key);
    }

    private static Optional<String> lookup(String key) {
        Optional<String> v = parameters.apply(key);
        return v.isPresent() ? v : Optional.ofNullable(System.getProperty(key));
    }

    /**
     * Parses a configuration.
     *
     * @param lookup           the value of a key, if set
     * @param systemKeys       keys to scan for {@code ndk.tck.set.*} besides those the lookup knows
     * @return the configuration
     */
    static TckConfig read(Function<String, Optional<String>> lookup, Iterable<String> systemKeys) {
        String provider = lookup.apply(PROVIDER).filter(s -> !s.isBlank()).orElse("reference");
        Map<String, String> settings = new TreeMap<>();
        for (String key : systemKeys) {
            if (key.startsWith(SET_PREFIX)) {
                lookup.apply(key).ifPresent(v -> settings.put(key.substring(SET_PREFIX.length()), v));
            }
        }
        SettingKeys.known().forEach(k -> lookup.apply(SET_PREFIX + k).ifPresent(v -> settings.put(k, v)));
        Optional<String> seedText = lookup.apply(SEED).filter(s -> !s.isBlank());
        long seed = seedText.map(s -> parseLong(SEED, s)).orElse(RANDOM_SEED);
        Profile profile = lookup.apply(PROFILE).filter(s -> !s.isBlank()).map(Profile::parse).orElse(Profile.STANDARD);
        Optional<Integer> tries = lookup.apply(TRIES).filter(s -> !s.isBlank()).map(s -> {
            long t = parseLong(TRIES, s);
            if (t < 1 || t > Integer.MAX_VALUE) {
                throw new IllegalArgumentException(TRIES + " must be a positive int, got " + s);
            }
            return (int) t;
        });
        double factor = lookup.apply(TIMEOUT_FACTOR).filter(s -> !s.isBlank()).map(s -> {
            try {
                double f = Double.parseDouble(s);
                if (!(f > 0) || Double.isInfinite(f)) {
                    throw new NumberFormatException();
                }
                return f;
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(TIMEOUT_FACTOR + " must be a positive number, got " + s);
            }
        }).orElse(1.0);
        return new TckConfig(provider, new LinkedHashMap<>(settings), seed, seedText.isPresent(), profile, tries, factor);
    }

    private static long parseLong(String key, String text) {
        try {
            return Long.parseLong(text.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " must be an integer, got '" + text + "'");
        }
    }

    /**
     * The tries a property gets. Without an override ({@code --tries}, {@code ndk.tck.tries}): the profile's
     * tries; a property that declares its own count (a small natural space, or costly tries such as the scale
     * properties' one try of 2^17 registrations) gets that count scaled by the profile ({@link Profile#tries(int)}:
     * half at smoke, ten times at deep), so deep is deeper everywhere. With an override of T tries: T for a
     * property without a declared count; a declared count D is scaled in the same proportion as the profiles scale
     * it, T / 1000 (the standard profile's tries), but never below min(T, D) and never above T: an override up to
     * the standard profile's tries gives min(T, D), so a quick look never runs a costly property more often than
     * the standard profile does, and a deeper override gives D × T / 1000.
     *
     * @param declared tries declared on the property, if any
     * @return tries to run, at least 1
     */
    public int triesFor(Optional<Integer> declared) {
        if (tries.isPresent()) {
            return overriddenTries(tries.get(), declared);
        }
        return declared.map(profile::tries).orElse(profile.tries());
    }

    /**
     * @param override the tries asked for ({@code --tries}), at least 1
     * @param declared tries declared on the property, if any
     * @return as {@link #triesFor} with that override
     */
    static int overriddenTries(int override, Optional<Integer> declared) {
        if (declared.isEmpty()) {
            return override;
        }
        int d = Math.max(1, declared.get());
        long scaled = (long) d * override / Profile.STANDARD.tries(); // below d exactly when override < 1000
        return (int) Math.min(override, Math.max(d, scaled));
    }

    /**
     * The seed of one property: a mix of the run seed and the property's name, so one rule replays alone.
     *
     * @param propertyId {@code Class#method}
     * @return the property's seed
     */
    public long seedFor(String propertyId) {
        long h = seed ^ 0x9E3779B97F4A7C15L;
        for (int i = 0; i < propertyId.length(); i++) {
            h = (h ^ propertyId.charAt(i)) * 0x100000001B3L;
        }
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        return h;
    }

    /**
     * @param baseMillis a bound at timeout factor 1
     * @return the bound scaled by the timeout factor, at least 1 ms
     */
    public long scaled(long baseMillis) {
        return Math.max(1, Math.round(baseMillis * timeoutFactor));
    }
}
