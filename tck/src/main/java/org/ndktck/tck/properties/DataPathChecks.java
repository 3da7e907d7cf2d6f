package org.ndktck.tck.properties;

import org.ndktck.tck.harness.Access;
import org.ndktck.tck.harness.Hex;
import org.ndktck.tck.harness.NdkSession;
import org.ndktck.tck.harness.Probes;
import org.ndktck.tck.harness.Region;
import org.ndktck.tck.harness.Violations;

import java.util.Arrays;

/**
 * The data-path check that MR-FR-10 ({@link FastRegisterProperties}) and MR-REG-4 ({@link RegisterMrProperties}) share:
 * peer writes and reads of 1 to 8 bytes at a region's first byte, last byte and a salted byte in between land exactly
 * there, and accesses just outside it (before its base, straddling its start or end, past its end, at a region offset
 * taken as a zero-based address, at its page-rounded start and end) fail and change no byte. Region offsets and
 * addresses are unsigned 64-bit values in a Java long. Errors: a {@link org.ndktck.tck.RuleViolation} of
 * {@code accessRule} for a refused access inside, of {@code rule} for a misplaced byte or an access outside that
 * succeeded, or the memory check's.
 */
final class DataPathChecks {
    private DataPathChecks() {
    }

    /**
     * The shared check of MR-FR-10 and MR-REG-4: writes and reads inside land exactly, accesses outside
     * fail and change nothing. An access inside that is refused is charged to {@code accessRule} (the rule
     * that says the token grants it: MR-FR-9 for a fast registration, MR-REG-8 for ALLOW_REMOTE_WRITE).
     */
    static void dataPathIsExact(NdkSession s, Region r, long salt, String rule, String accessRule) {
        long len = r.length();
        long[] ks = {0, len - 1, Long.remainderUnsigned(salt, len)};
        for (long k : ks) {
            int n = (int) Math.min(Math.min(1 + Long.remainderUnsigned(salt >>> 7, 8), s.maxAccess()), len - k);
            Access w = Probes.writeInside(s, r, k, n);
            if (!w.succeeded()) {
                throw Violations.of(accessRule, w.outcome().call(), "success: byte " + Hex.u64(k) + " is inside " + r, w.describe());
            }
            byte[] expected = Probes.expectedAt(r, k, n);
            byte[] actual = Probes.actualAt(r, k, n);
            if (!Arrays.equals(expected, actual)) {
                throw Violations.of(rule, w.outcome().call(), "the bytes land at region byte " + Hex.u64(k) + " (" + Hex.bytes(expected) + ")",
                        "memory there holds " + Hex.bytes(actual));
            }
            Access rd = Probes.readInside(s, r, k, n);
            if (!rd.succeeded()) {
                throw Violations.of(accessRule, rd.outcome().call(), "success: byte " + Hex.u64(k) + " is inside " + r, rd.describe());
            }
            if (!Arrays.equals(rd.data(), expected)) {
                throw Violations.of(rule, rd.outcome().call(), "success with region bytes " + Hex.u64(k) + ".. = " + Hex.bytes(expected),
                        rd.describe() + (rd.succeeded() ? " with " + Hex.bytes(rd.data()) : ""));
            }
        }
        s.checkMemory(rule, "peer writes inside " + r);
        long zeroBased = Long.remainderUnsigned(salt >>> 11, len);
        for (long[] probe : Probes.outside(r, zeroBased, s.pageSize())) {
            Access w = Probes.writeAt(s, r, probe[0], (int) probe[1]);
            if (w.succeeded()) {
                throw Violations.of(rule, w.outcome().call(), "failure: " + probe[1] + " byte(s) at " + Hex.u64(probe[0]) + " leave " + r, w.describe());
            }
            Access rd = Probes.readAt(s, r, probe[0], (int) probe[1]);
            if (rd.succeeded()) {
                throw Violations.of(rule, rd.outcome().call(), "failure: " + probe[1] + " byte(s) at " + Hex.u64(probe[0]) + " leave " + r, rd.describe());
            }
            s.checkMemory(rule, () -> w.outcome().call() + " (must change nothing)");
        }
    }
}
