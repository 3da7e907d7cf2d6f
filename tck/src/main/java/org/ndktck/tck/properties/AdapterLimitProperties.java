package org.ndktck.tck.properties;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tag;
import net.jqwik.api.constraints.IntRange;
import org.ndktck.spec.Mdl;
import org.ndktck.spec.NdkMr;
import org.ndktck.spec.NdkMrFlags;
import org.ndktck.spec.NdkOpFlags;
import org.ndktck.tck.generators.Limits;
import org.ndktck.tck.harness.Access;
import org.ndktck.tck.harness.Created;
import org.ndktck.tck.harness.FastRegion;
import org.ndktck.tck.harness.Hex;
import org.ndktck.tck.harness.HostBuffer;
import org.ndktck.tck.harness.NdkKit;
import org.ndktck.tck.harness.NdkSession;
import org.ndktck.tck.harness.Outcome;
import org.ndktck.tck.harness.Probes;
import org.ndktck.tck.harness.Refusals;
import org.ndktck.tck.harness.Region;
import org.ndktck.tck.harness.SessionTools;
import org.ndktck.tck.harness.TckConfig;
import org.ndktck.tck.harness.Violations;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.ndktck.tck.harness.Hex.u32;

/**
 * The adapter at its limits: its MR count reached, released and reached again (LIM-2), and the
 * largest fast registration the kit builds, FRMRPageCount pages or the kit's cap of {@value #FR_PAGE_CAP} pages,
 * reaching every one of its pages (COV-2, MR-FRI-2).
 */
@NdkKit
public class AdapterLimitProperties {
    /** MRs a round creates at most at the smoke profile (or a {@code --tries} below the standard profile's). */
    static final int SMOKE_MRS = 64;
    /** MRs a round creates at most at the standard profile. */
    static final int STANDARD_MRS = 256;
    /** MRs a round creates at most at the deep profile. */
    static final int DEEP_MRS = 2048;
    /** Rounds of create-all, close-all on one adapter. */
    static final int ROUNDS = 3;
    /** The most pages the largest-fast-registration property registers: {@link Limits#routinePages()}. */
    static final int FR_PAGE_CAP = 4096;
    /** The most bytes it registers: 16 MiB (4096 pages of 4096 bytes, fewer larger pages). */
    static final long FR_BYTE_CAP = 16L << 20;

    /**
     * @param config the run's configuration
     * @return how many MRs a round creates at most (the run's tries per property decide the profile)
     */
    static int mrCap(TckConfig config) {
        int tries = config.tries().orElse(config.profile().tries());
        if (tries >= TckConfig.Profile.DEEP.tries()) {
            return DEEP_MRS;
        }
        return tries >= TckConfig.Profile.STANDARD.tries() ? STANDARD_MRS : SMOKE_MRS;
    }

    /**
     * LIM-2: on one adapter, {@value #ROUNDS} rounds each create MRs on the target PD (fast-register ones when
     * {@code fastRegister}; with {@code use}, each normal MR is registered over one page and each fast-register MR
     * initialized for one page) until a create is refused with STATUS_INSUFFICIENT_RESOURCES three times in a row or
     * {@link #mrCap} MRs are live, then deregister and close them all. Every round after the first must reach at
     * least the first round's count: closed MRs hold nothing, so a provider that leaks a slot per create and close
     * runs out. Any other error of a create fails MR-CREATE-2; a registration or initialization refused for lack
     * of resources also ends the round's creates.
     *
     * @param fastRegister FastRegister of the MRs
     * @param use          whether each MR is registered (or initialized) before it is closed
     */
    @Property(tries = 4)
    @Tag("LIM-2")
    void theAdaptersMrCountIsReachedAgainAfterEveryMrIsClosed(@ForAll boolean fastRegister, @ForAll boolean use) {
        int cap = mrCap(TckConfig.current());
        NdkSession.inTry(s -> {
            int p = s.pageSize();
            int first = -1;
            String firstEnd = "";
            for (int round = 0; round < ROUNDS; round++) {
                List<NdkMr> live = new ArrayList<>();
                String end = "the kit's count (" + cap + ")";
                while (live.size() < cap) {
                    Created<NdkMr> c = Refusals.retried(() -> s.createMrRaw(s.target(), fastRegister), Created::status);
                    if (Refusals.isAllowedRefusal(c.status())) {
                        end = c.call() + " refused three times in a row (" + c.describe() + ")";
                        break;
                    }
                    if (!c.succeeded()) {
                        throw Violations.of("MR-CREATE-2", c.call() + " (MR " + (live.size() + 1) + " of round " + (round + 1) + ")",
                                "STATUS_SUCCESS, or STATUS_INSUFFICIENT_RESOURCES at the adapter's limit", c.describe());
                    }
                    NdkMr mr = c.object();
                    live.add(mr);
                    if (use) {
                        Outcome o;
                        if (fastRegister) {
                            o = Refusals.retried(() -> s.initializeFastRegister(mr, 1, false), Outcome::status);
                        } else {
                            HostBuffer b = s.allocate(1);
                            Mdl mdl = b.mdl(0x0000_5A00_0000_0000L + ((long) live.size() << 20), 0, p);
                            o = Refusals.retried(() -> s.register(mr, mdl, p, NdkMrFlags.ALLOW_LOCAL_WRITE), Outcome::status);
                        }
                        if (Refusals.isAllowedRefusal(o.status())) {
                            end = o.call() + " refused three times in a row";
                            break;
                        }
                        if (!o.succeeded()) {
                            throw Violations.of(fastRegister ? "MR-FRI-2" : "MR-REG-10", o.call() + " (MR " + live.size() + " of round "
                                    + (round + 1) + ")", "STATUS_SUCCESS, or STATUS_INSUFFICIENT_RESOURCES at the adapter's limit", o.describe());
                        }
                    }
                }
                int count = live.size();
                if (round == 0) {
                    first = count;
                    firstEnd = end;
                } else if (count < first) {
                    throw Violations.of("LIM-2", "round " + (round + 1) + " of NdkCreateMr(FastRegister=" + (fastRegister ? "TRUE" : "FALSE")
                                    + ")" + (use ? (fastRegister ? " + NdkInitializeFastRegisterMr" : " + NdkRegisterMr") : "")
                                    + " on one adapter, after every MR of the rounds before was " + (use && !fastRegister ? "deregistered and " : "")
                                    + "closed", "as many MRs as round 1 (" + first + ", ended by " + firstEnd + "): closed MRs hold nothing",
                            count + " MRs, then " + end);
                }
                for (NdkMr mr : live) {
                    if (use && !fastRegister) {
                        Outcome d = Refusals.retried(() -> s.deregister(mr), Outcome::status);
                        if (!d.succeeded()) {
                            Refusals.discardIfRefused(d.status());
                            throw Violations.of("MR-DEREG-2", d.call(), "STATUS_SUCCESS for a registered MR", d.describe());
                        }
                    }
                    s.closeMr(mr);
                }
            }
        });
    }

    /** @return the adapter's limits */
    @Provide
    net.jqwik.api.Arbitrary<Limits> limits() {
        return net.jqwik.api.Arbitraries.just(Limits.current());
    }

    /**
     * COV-2 and MR-FRI-2 at the largest fast registration: an MR initialized for min(FRMRPageCount,
     * {@value #FR_PAGE_CAP}, 16 MiB / PAGE_SIZE) pages is fast-registered with exactly that many pages (remote read and write) over a
     * scattered buffer and its LAM; the kit stamps 8 bytes at a seeded offset of every page with the page's index,
     * then the peer reads them and must find that page's own stamp (a page array entry mapped to another page's frame, or left out, fails), and writes the first
     * and last page.
     *
     * @param limits the adapter's limits
     * @param seed   picks the offset inside each page
     */
    @Property(tries = 1)
    @Tag("COV-2")
    @Tag("MR-FRI-2")
    void theLargestFastRegistrationReachesEveryPage(@ForAll("limits") Limits limits, @ForAll @IntRange(min = 0, max = 1 << 20) int seed) {
        NdkSession.inTry(s -> {
            try (SessionTools t = SessionTools.of(s)) {
                int p = s.pageSize();
                int pages = (int) Math.max(1, Math.min(Math.min(FR_PAGE_CAP, limits.routinePages()), FR_BYTE_CAP / p));
                FastRegion f = t.fastRegistered(pages, 0, NdkOpFlags.ALLOW_REMOTE_READ | NdkOpFlags.ALLOW_REMOTE_WRITE, true);
                Region r = f.region();
                String what = "the fast registration of " + pages + " pages (FRMRPageCount " + limits.frmrPageCount()
                        + ", token " + u32(f.token()) + ")";
                long[] at = new long[pages];
                byte[][] stamps = new byte[pages][];
                for (int i = 0; i < pages; i++) {
                    // a buffer above HostBuffer.PAINT_LIMIT pages is not painted: stamp each probe's bytes with its page
                    at[i] = (long) i * p + Math.floorMod(seed + 977L * i, p - 8);
                    byte[] stamp = java.nio.ByteBuffer.allocate(8).putInt(0x5A5A0000 ^ seed).putInt(i).array();
                    stamps[i] = stamp;
                    r.buffer().put(r.bufferOffset() + at[i], stamp);
                }
                for (int i = 0; i < pages; i++) {
                    long k = at[i];
                    Access rd = Probes.readInside(s, r, k, 8);
                    byte[] want = stamps[i];
                    if (!rd.succeeded() || !Arrays.equals(rd.data(), want)) {
                        throw Violations.of("COV-2", rd.describe() + " at page " + i + " of " + what,
                                "STATUS_SUCCESS and that page's stamp " + Hex.bytes(want),
                                rd.succeeded() ? "read " + Hex.bytes(rd.data()) : "it failed");
                    }
                }
                for (long k : new long[]{0, f.length() - 8}) {
                    Access w = Probes.writeInside(s, r, k, 8);
                    if (!w.succeeded()) {
                        throw Violations.of("COV-2", w.describe() + " at region offset " + k + " of " + what, "STATUS_SUCCESS", "it failed");
                    }
                }
                s.checkMemory("COV-2", "peer reads of every page of " + what);
            }
        });
    }
}
