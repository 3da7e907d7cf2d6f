package org.ndktck.tck.properties;

import net.jqwik.api.statistics.Statistics;

import java.util.Map;

/**
 * Statistics the kit prints without claiming coverage: each one counts what the provider did (or what an adapter limit
 * allows), not a class of input a generator must produce, so no run can demand it. Every such label is listed here with
 * the reason it is not a claim; {@link #collect} refuses any other label (a kit bug), and the kit's own build checks
 * that no property collects a statistic except through a coverage claim ({@link CoverageClaims}: {@code Checks.cover},
 * {@code SectionChecks.cover}, {@link StepClaims}) or through this list.
 */
final class Observations {
    private Observations() {
    }

    /** GEN-CB-1..: whether a call returned inline or STATUS_PENDING. */
    static final String RETURNED = "returned";
    /** GEN-CB: how a refusal for lack of resources was met. */
    static final String RESOURCES = "resources";
    /** GEN-LIFE: how a registration completed. */
    static final String COMPLETION = "completion";
    /** MR-REG-10: whether a Length lay within or beyond MaxRegistrationSize. */
    static final String WITHIN_LIMIT = "MaxRegistrationSize";
    /** MR-CREATE-2: how NdkCreateMr completed, per FastRegister. */
    static final String CREATE_FAST = "FastRegister=true";
    /** MR-CREATE-2: how NdkCreateMr completed, per FastRegister. */
    static final String CREATE_NORMAL = "FastRegister=false";
    /** OBJ-2: the MR header's version. */
    static final String VERSION = "version";
    /** MR-FRI-2: the initialized page count's class. */
    static final String PAGES = "pages";
    /** COV-1: what became of a registration past MaxRegistrationSize. */
    static final String PAST_LIMIT = "past MaxRegistrationSize";
    /** The (state, call) pairs of the MR model a chain reached. */
    static final String MODEL_PAIRS = "model (state, call)";

    /** Each label printed without a claim, and why it cannot be one. */
    static final Map<String, String> WHY = Map.of(
            RETURNED, "the provider chooses between an inline return and STATUS_PENDING",
            RESOURCES, "the provider chooses whether and when to refuse for lack of resources",
            COMPLETION, "the provider chooses how a registration completes",
            WITHIN_LIMIT, "beyond MaxRegistrationSize exists only when the adapter's limit lies within the kit's reach"
                    + " (ChecksReached reports the beyond half as not reached otherwise)",
            CREATE_FAST, "the provider chooses between an inline return and STATUS_PENDING",
            CREATE_NORMAL, "the provider chooses between an inline return and STATUS_PENDING",
            VERSION, "the provider's header version",
            PAGES, "the classes follow FRMRPageCount (an adapter limit): 'more than 16' exists only above 16 pages,"
                    + " and the property mixes its edge cases in at random",
            PAST_LIMIT, "whether a Length past MaxRegistrationSize is tried, refused or accepted follows the adapter's"
                    + " limit and the provider's choice (ChecksReached reports the check as not reached otherwise)",
            MODEL_PAIRS, "which (state, call) pairs of the MR model a chain reaches follows the provider's outcomes (a"
                    + " refused registration leaves its MR unregistered); the chain's step mix is its claim (StepClaims)");

    /**
     * Prints one value under a listed label.
     *
     * @param label a label of {@link #WHY}
     * @param value this try's value
     * @throws IllegalStateException for a label not listed (a statistic printed and never asserted must say why)
     */
    static void collect(String label, String value) {
        if (!WHY.containsKey(label)) {
            throw new IllegalStateException("statistic '" + label + "' is neither a coverage claim nor a listed observation");
        }
        Statistics.label(label).collect(value);
    }
}
