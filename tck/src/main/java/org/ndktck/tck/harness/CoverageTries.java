package org.ndktck.tck.harness;

/** How many tries a coverage claim needs ({@link CoverageClasses}). */
public final class CoverageTries {
    private CoverageTries() {
    }

    /**
     * The tries at which a claim of {@code classes} equally likely classes misses one with a chance below one in a
     * million: {@code ceil(k × ln(k × 10^6))} (k = 2: 30, 3: 45, 4: 61, 6: 94, 8: 127).
     *
     * @param classes the classes of the claim, at least 1
     * @return the least tries at which the claim is demanded
     */
    public static int leastTries(int classes) {
        int k = Math.max(1, classes);
        return (int) Math.ceil(k * Math.log(k * 1e6));
    }
}
