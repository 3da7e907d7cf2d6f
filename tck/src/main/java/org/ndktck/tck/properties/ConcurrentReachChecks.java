package org.ndktck.tck.properties;

import org.ndktck.tck.RuleViolation;
import org.ndktck.tck.harness.Access;
import org.ndktck.tck.harness.NdkSession;
import org.ndktck.tck.harness.Probes;
import org.ndktck.tck.harness.Region;
import org.ndktck.tck.harness.Violations;

import java.util.Arrays;

import static org.ndktck.tck.harness.Hex.u32;

/**
 * The probes {@link ConcurrentCallsProperties} makes one at a time once a schedule has run: a live token reaches its
 * own region (a peer write and read-back of up to 8 bytes at the region's first and last bytes, then the memory check:
 * no byte outside the region changed, MR-TOK-6), and a dead token reaches nothing (a peer write and read at a given
 * absolute address both fail and change no byte: INV-4, MR-DEREG-3). Addresses are unsigned 64-bit values in a Java
 * long. Errors: a {@link RuleViolation} naming the rule the caller gives, or the memory check's.
 */
final class ConcurrentReachChecks {
    private ConcurrentReachChecks() {
    }

    /**
     * One peer write and read back at the region's first and last bytes, each followed by a memory check: the
     * access must succeed (rule {@code reachRule}) and change no byte outside the region (MR-TOK-6: the token
     * reached another region).
     */
    static void reachesOwnRegionOnly(NdkSession s, Region r, String reachRule, String what) {
        int n = (int) Math.min(8, r.length());
        for (long k : new long[]{0, r.length() - n}) {
            Access w = Probes.writeInside(s, r, k, n);
            s.checkMemory("MR-TOK-6", () -> w.describe() + " with the token of " + what + " (no other region may change)");
            Access rd = Probes.readInside(s, r, k, n);
            if (!w.succeeded() || !rd.succeeded() || !Arrays.equals(rd.data(), Probes.actualAt(r, k, n))
                    || !Arrays.equals(rd.data(), Probes.expectedAt(r, k, n))) {
                throw Violations.of(reachRule, w.describe() + "; " + rd.describe(),
                        "the token of " + what + " reaches its own region at absolute addresses (write, then read back)",
                        w.outcome().describe() + "; " + rd.outcome().describe());
            }
        }
    }

    /** A peer write and read with a dead token at {@code address}: both must fail and no byte may change. */
    static void deniedAt(NdkSession s, Region dead, long address, String rule, String what) {
        int n = (int) Math.min(8, dead.length());
        Access w = Probes.writeAt(s, dead, address, n);
        Access rd = Probes.readAt(s, dead, address, n);
        if (w.succeeded() || rd.succeeded()) {
            throw Violations.of(rule, w.describe() + "; " + rd.describe(), "the token " + u32(dead.remoteToken()) + " of " + what
                    + " reaches nothing once that call has completed", w.outcome().describe() + "; " + rd.outcome().describe());
        }
        s.checkMemory(rule, () -> w.describe() + " with the token of " + what + " (it must change nothing)");
    }
}
