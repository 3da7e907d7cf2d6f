package org.ndktck.tck.harness;

import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * The time budget of a kit run: {@code ./ndk-tck run --time-budget SECONDS}, or the
 * configuration parameter (or system property) {@value #KEY} in a provider's own build. The budget bounds the
 * whole run; its tries are spread over the run's properties:
 * <ul>
 *   <li>when a property starts it gets a share of what is left of the budget: the time until the soft end
 *       ({@value #SOFT_PERCENT} % of the budget after its start) divided by the properties not yet started that this
 *       JVM will run, so time a quick property leaves unused goes to the properties after it. With {@code --jobs N}
 *       the workers share the plan ({@link PropertyClaims}): a worker expects to run the same fraction of the
 *       properties left as it ran of those before, so every worker's share is cut from the whole budget;</li>
 *   <li>after each try that passed, a property whose share has run out ends at once, with the tries done so far
 *       ({@code TryExecutionResult.satisfied(true)}: jqwik's own early end, which keeps every result). It is
 *       <i>budget-limited</i>: when it passed, its rule is PASS with fewer tries, and the record's message starts
 *       with {@value #LIMITED}, which the reports show (report.json {@code budgetLimited}); when the tries it ran did
 *       not reach one of its coverage claims, the claim's check makes it aborted and its rule UNTESTED with the reason
 *       (the record's message holds a {@value #LIMITED} line too). A property that has
 *       failed is never cut short while it shrinks (its shrinking has its own bounds);</li>
 *   <li>the runner ends the whole run at the hard end (the budget itself, counted from the run's start); the
 *       property then running is reported as budget-limited and not judged, the properties not yet started as not
 *       run.</li>
 * </ul>
 * The budget is counted from the run's start: {@value #START} (milliseconds since the epoch, which the command
 * line runner sets to its JVM's start, so the budget bounds the command's wall time, and hands to its worker JVMs),
 * else the start of the test plan (or {@code @Suite}) that holds the properties.
 */
public final class TimeBudget {
    /** Configuration parameter and system property of the budget, in seconds (a positive number). */
    public static final String KEY = "ndk.tck.timeBudget";
    /** Configuration parameter and system property of the run's start, in milliseconds since the epoch (set by the runner). */
    public static final String START = "ndk.tck.timeBudgetStart";
    /** Start of the message of a property (and of a rule's note) that ran fewer tries because of the budget. */
    public static final String LIMITED = "budget-limited: ";
    /** Percentage of the budget the properties' shares are cut from; the rest is a margin for the last tries and the report. */
    public static final int SOFT_PERCENT = 90;

    /**
     * The budget in force: its start and length in milliseconds, the properties not yet started (by any worker), and
     * how many of those started so far this JVM ran ({@code mine}) and another worker ran ({@code elsewhere}).
     */
    private record Run(long startMillis, long budgetMillis, AtomicInteger remaining, AtomicInteger mine, AtomicInteger elsewhere) {
    }

    private static volatile Run run;
    private static volatile String error;
    /** The share of the property running now: its end in milliseconds since the epoch, or Long.MAX_VALUE. */
    private static volatile long propertyEnd = Long.MAX_VALUE;
    private static volatile long propertyShare;
    private static volatile boolean limited;

    private TimeBudget() {
    }

    /**
     * Reads the budget of a run.
     *
     * @param parameters the run's configuration parameters (system properties are looked up where a key is absent)
     * @return the budget in milliseconds, or empty when none is set
     * @throws IllegalArgumentException when the value is not a number of at least 1 second (the message names the key)
     */
    public static Optional<Long> budgetMillis(Function<String, Optional<String>> parameters) {
        Optional<String> text = lookup(parameters, KEY);
        if (text.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(parseSeconds(KEY, text.get()));
    }

    /**
     * @param what  the option or key, for the message
     * @param text  a number of seconds
     * @return it in milliseconds, at least 1000
     * @throws IllegalArgumentException when it is not a finite number of at least 1 second
     */
    public static long parseSeconds(String what, String text) {
        double s;
        try {
            s = Double.parseDouble(text.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(what + " must be a positive number of seconds, got '" + text + "'");
        }
        if (!(s > 0) || Double.isInfinite(s)) {
            throw new IllegalArgumentException(what + " must be a positive number of seconds, got '" + text + "'");
        }
        long millis = Math.round(s * 1000);
        if (millis < 1000) {
            throw new IllegalArgumentException(what + " must be at least 1 second, got '" + text + "'");
        }
        return millis;
    }

    /**
     * @param parameters the run's configuration parameters
     * @return the run's start in milliseconds since the epoch, when {@value #START} gives it
     */
    public static Optional<Long> startMillis(Function<String, Optional<String>> parameters) {
        return lookup(parameters, START).map(s -> {
            try {
                return Long.parseLong(s.trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(START + " must be milliseconds since the epoch, got '" + s + "'");
            }
        });
    }

    private static Optional<String> lookup(Function<String, Optional<String>> parameters, String key) {
        Optional<String> v = parameters.apply(key);
        if (v.isEmpty()) {
            v = Optional.ofNullable(System.getProperty(key));
        }
        return v.filter(s -> !s.isBlank());
    }

    /**
     * Starts the budget of a run (a test plan, or a suite inside one), or none when the parameters set no budget.
     * Called by {@link ConfigCapture}.
     *
     * @param parameters the run's configuration parameters
     * @param properties the kit properties the run holds
     */
    static void startRun(Function<String, Optional<String>> parameters, int properties) {
        run = null;
        error = null;
        endProperty();
        try {
            Optional<Long> budget = budgetMillis(parameters);
            if (budget.isPresent()) {
                long start = startMillis(parameters).orElse(System.currentTimeMillis());
                run = new Run(start, budget.get(), new AtomicInteger(Math.max(1, properties)), new AtomicInteger(), new AtomicInteger());
            }
        } catch (IllegalArgumentException e) {
            error = e.getMessage();
        }
    }

    /** Ends the budget (the run is over). */
    public static void endRun() {
        run = null;
        error = null;
        endProperty();
    }

    /** A property skipped before it ran (not applicable, setup error): it needs no share. */
    static void skipped() {
        Run r = run;
        if (r != null) {
            r.remaining().updateAndGet(n -> Math.max(1, n - 1));
        }
    }

    /** A property another worker of the run claimed ({@link PropertyClaims}): it needs no share of this JVM's. */
    static void claimedElsewhere() {
        Run r = run;
        if (r != null) {
            r.elsewhere().incrementAndGet();
            r.remaining().updateAndGet(n -> Math.max(1, n - 1));
        }
    }

    /**
     * Gives the property that starts its share of the budget.
     *
     * @return the claim, for {@link #endProperty(long)}
     * @throws IllegalArgumentException when the budget's configuration is bad (the property fails with the message)
     */
    static long claim() {
        limited = false;
        long gen = GENERATION.incrementAndGet();
        String e = error;
        if (e != null) {
            throw new IllegalArgumentException(e);
        }
        Run r = run;
        if (r == null) {
            propertyEnd = Long.MAX_VALUE;
            propertyShare = 0;
            return gen;
        }
        long now = System.currentTimeMillis();
        long softEnd = r.startMillis() + r.budgetMillis() * SOFT_PERCENT / 100;
        int left = Math.max(1, r.remaining().getAndUpdate(k -> Math.max(1, k - 1)));
        int mine = r.mine().incrementAndGet();
        int n = ownShareOf(left, mine, r.elsewhere().get());
        long share = Math.max(0, softEnd - now) / n;
        propertyShare = share;
        propertyEnd = now + share;
        return gen;
    }

    /**
     * @param left      properties not yet started by any worker, this one included (≥ 1)
     * @param mine      properties this JVM started, this one included (≥ 1)
     * @param elsewhere properties another worker started
     * @return how many of the {@code left} properties this JVM expects to run: the same fraction as of those before,
     *     rounded up, at least 1
     */
    static int ownShareOf(int left, int mine, int elsewhere) {
        long expected = ((long) left * mine + mine + elsewhere - 1) / (mine + elsewhere);
        return (int) Math.max(1, Math.min(left, expected));
    }

    /** Counts claims, so a property the runner abandoned cannot end the share of the one after it. */
    private static final java.util.concurrent.atomic.AtomicLong GENERATION = new java.util.concurrent.atomic.AtomicLong();

    /**
     * Forgets the running property's share.
     *
     * @param claim what {@link #claim} returned for the property that ends
     */
    static void endProperty(long claim) {
        if (GENERATION.get() == claim) {
            propertyEnd = Long.MAX_VALUE;
        }
    }

    private static void endProperty() {
        propertyEnd = Long.MAX_VALUE;
    }

    /**
     * Called after a try that passed: when the running property's share has run out it is marked budget-limited.
     *
     * @return true when the property must end now, with the tries done so far
     */
    static boolean shareSpent() {
        if (propertyEnd == Long.MAX_VALUE || System.currentTimeMillis() < propertyEnd) {
            return false;
        }
        limited = true;
        return true;
    }

    /**
     * A try of the running property failed: from now on it is never cut short, neither by its share nor by the runner
     * (its shrinking has its own bounds, and its failure must be reported).
     */
    static void propertyFailed() {
        propertyEnd = Long.MAX_VALUE;
    }

    /**
     * @return the end of the running property's share in milliseconds since the epoch, or {@link Long#MAX_VALUE}
     *     when no budget is set, no property runs or the property has failed (the runner abandons a property that
     *     overruns its share by far, {@link #overrunMillis})
     */
    public static long propertyEndMillis() {
        return propertyEnd;
    }

    /**
     * @return how long the runner lets a property run past the end of its share (a try that does not end, for example
     *     one try of a scale property against a slow provider) before it abandons it and goes on: its share, at least
     *     two seconds
     */
    public static long overrunMillis() {
        return Math.max(2000, propertyShare);
    }

    /** @return the running (or last) property's share of the budget in milliseconds */
    public static long propertyShareMillis() {
        return propertyShare;
    }

    /**
     * @return true when the running property was ended early by its share of the budget: it ran fewer tries than
     *     planned, so a check that needs every planned try (a generator's coverage) is not made
     */
    public static boolean cutShort() {
        return limited;
    }

    /** @return true when the running (or last) property was ended by its share of the budget */
    static boolean limited() {
        return limited;
    }

    /**
     * @param done    tries run
     * @param planned tries the profile gives the property (a property whose whole input space is smaller runs
     *                fewer: jqwik then tries every input once, so the message says "up to")
     * @return the message of a property that passed with fewer tries because of the budget
     */
    static String limitedMessage(int done, int planned) {
        return LIMITED + done + " of up to " + planned + " tries ran before the property's share of the time budget ("
                + String.format(java.util.Locale.ROOT, "%.1f", propertyShare / 1000.0) + " s) ran out";
    }

    /**
     * @param message a property's or rule's message, or null
     * @return true when a line of it starts with {@value #LIMITED}
     */
    public static boolean isLimited(String message) {
        if (message == null) {
            return false;
        }
        for (String line : message.split("\n")) {
            if (line.startsWith(LIMITED)) {
                return true;
            }
        }
        return false;
    }
}
