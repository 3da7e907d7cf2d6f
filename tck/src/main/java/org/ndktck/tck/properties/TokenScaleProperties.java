package org.ndktck.tck.properties;

import net.jqwik.api.Property;
import net.jqwik.api.Tag;
import org.ndktck.spec.Mdl;
import org.ndktck.spec.NdkMr;
import org.ndktck.spec.NdkMrFlags;
import org.ndktck.spec.NtStatus;
import org.ndktck.tck.harness.Access;
import org.ndktck.tck.harness.Outcome;
import org.ndktck.tck.harness.Registered;
import org.ndktck.tck.harness.AsyncOp;
import org.ndktck.tck.harness.NdkKit;
import org.ndktck.tck.harness.NdkSession;
import org.ndktck.tck.harness.Probes;
import org.ndktck.tck.harness.SessionTools;
import org.ndktck.tck.harness.Refusals;
import org.ndktck.tck.harness.Violations;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

import static org.ndktck.tck.harness.Hex.u32;

/**
 * MR-TOK-6 at scale: tokens stay unique among live registrations over {@link #ALLOCATIONS} allocations on ONE
 * adapter ({@link #SMOKE_ALLOCATIONS} at the smoke profile) while older registrations stay live. A token allocator that counts in up to 17 bits without asking
 * which tokens are live (or any allocator that wraps into a live token within that many allocations) hands a
 * new registration the token of a live one and FAILs.
 */
@NdkKit
public class TokenScaleProperties {
    /** Registrations made on the one adapter at the standard and deep profiles: 2^17 + 64. */
    static final int ALLOCATIONS = (1 << 17) + 64;
    /**
     * At the smoke profile: 2^12 + 64 (a quick look; a provider whose calls are slow, such as {@code legal:slow},
     * would spend minutes on 2^17).
     */
    static final int SMOKE_ALLOCATIONS = (1 << 12) + 64;
    /**
     * The registrations of one run: {@link #ALLOCATIONS} when the run gives each property at least the standard
     * profile's tries, else {@link #SMOKE_ALLOCATIONS} (the smoke profile, or {@code --tries} / {@code ndk.tck.tries}
     * below the standard profile's 1000: a run that asked for a quick look gets the quick look here too).
     *
     * @param config the run's configuration
     * @return registrations to make on the one adapter
     */
    static int allocations(org.ndktck.tck.harness.TckConfig config) {
        int tries = config.tries().orElse(config.profile().tries());
        return tries >= org.ndktck.tck.harness.TckConfig.Profile.STANDARD.tries() ? ALLOCATIONS : SMOKE_ALLOCATIONS;
    }

    /** MRs registered (and deregistered) together. */
    static final int BATCH = 64;
    /** Registrations kept live through the whole run. */
    static final int LIVE = 8;

    /**
     * MR-TOK-6: {@link #LIVE} registrations stay live while {@link #BATCH} more MRs are registered together and
     * deregistered together until {@link #ALLOCATIONS} registrations were made on the same adapter; no new token may equal a live one, and afterwards every
     * live registration still takes a peer write and read with its token. The batch's MRs are registered again after
     * each deregistration; a provider may refuse that with any status (MR-DEREG-4, unspecified), and a fresh MR then
     * takes the refused one's place.
     */
    @Property(tries = 1)
    @Tag("MR-TOK-6")
    void tokensStayUniqueOverTwoToTheSeventeenAllocationsOnOneAdapter() {
        int allocations = allocations(org.ndktck.tck.harness.TckConfig.current());
        NdkSession.inTry(s -> {
            try (SessionTools t = SessionTools.of(s)) {
                s.qps();
                int p = s.pageSize();
                int rw = NdkMrFlags.ALLOW_REMOTE_READ | NdkMrFlags.ALLOW_REMOTE_WRITE;
                Registered[] live = new Registered[LIVE];
                Map<Integer, Integer> liveTokens = new HashMap<>();
                for (int i = 0; i < LIVE; i++) {
                    live[i] = t.registered(s.target(), 1, 0, p, rw);
                    liveTokens.put(live[i].remoteToken(), i);
                }
                // BATCH MRs are registered together, their tokens checked, then deregistered together: the waits of a
                // provider that completes late overlap, so the run costs ALLOCATIONS / BATCH completion latencies
                NdkMr[] batch = new NdkMr[BATCH];
                Mdl[] mdls = new Mdl[BATCH];
                for (int j = 0; j < BATCH; j++) {
                    batch[j] = s.createMr(s.target(), false);
                    mdls[j] = s.allocate(1).mdl(t.freshVa(), 0, p);
                }
                @SuppressWarnings("unchecked")
                AsyncOp<NdkMr>[] ops = new AsyncOp[BATCH];
                Map<Integer, Integer> round = new HashMap<>();
                boolean[] registered = new boolean[BATCH];
                boolean[] usedBefore = new boolean[BATCH];
                for (int done = 0; done < allocations; done += BATCH) {
                    for (int j = 0; j < BATCH; j++) {
                        ops[j] = t.startRegister(batch[j], mdls[j], p, rw);
                    }
                    round.clear();
                    for (int j = 0; j < BATCH; j++) {
                        Outcome o = t.finish(ops[j], "MR-REG-9", "STATUS_SUCCESS, STATUS_PENDING or an error code");
                        if (usedBefore[j] && !o.succeeded() && !Refusals.isAllowedRefusal(o.status())) {
                            // the pages leave registering a deregistered MR again unspecified (MR-DEREG-4): any refusal
                            // is allowed, and a fresh MR takes this one's place
                            t.closeAndWait(batch[j]);
                            batch[j] = s.createMr(s.target(), false);
                            usedBefore[j] = false;
                            o = t.finish(t.startRegister(batch[j], mdls[j], p, rw), "MR-REG-9", "STATUS_SUCCESS, STATUS_PENDING or an error code");
                        }
                        registered[j] = !Refusals.isAllowedRefusal(o.status());
                        usedBefore[j] |= o.succeeded();
                        if (!registered[j]) {
                            continue; // an allowed refusal: this MR holds no token this round
                        }
                        if (!o.succeeded()) {
                            throw Violations.of("MR-REG-10", o.call() + " (registration " + (LIVE + done + j + 1) + " on this adapter)",
                                    "STATUS_SUCCESS for a valid registration", o.describe());
                        }
                        int token = s.remoteToken(batch[j]);
                        Integer clash = liveTokens.get(token);
                        Integer twin = round.put(token, j);
                        if (clash != null || twin != null) {
                            throw Violations.of("MR-TOK-6", o.call() + " number " + (LIVE + done + j + 1) + " on one adapter",
                                    "a remote token no live registration holds", "remote token " + u32(token) + ", held by "
                                            + (clash != null ? "live registration " + clash + " (registered first, still live)"
                                            : "registration " + (LIVE + done + twin + 1) + " (live at the same time)"));
                        }
                    }
                    for (int j = 0; j < BATCH; j++) {
                        ops[j] = registered[j] ? t.startDeregister(batch[j]) : null;
                    }
                    for (int j = 0; j < BATCH; j++) {
                        if (ops[j] == null) {
                            continue;
                        }
                        Outcome d = t.finish(ops[j], "MR-DEREG-2", "STATUS_SUCCESS, STATUS_PENDING or an error code");
                        for (int retry = 0; retry < 3 && Refusals.isAllowedRefusal(d.status()); retry++) {
                            d = t.finish(t.startDeregister(batch[j]), "MR-DEREG-2", "STATUS_SUCCESS, STATUS_PENDING or an error code");
                        }
                        Refusals.discardIfRefused(d.status());
                        if (!d.succeeded()) {
                            throw Violations.of("MR-DEREG-2", d.call(), "STATUS_SUCCESS", d.describe());
                        }
                    }
                }
                for (int i = 0; i < LIVE; i++) {
                    Access w = Probes.writeInside(s, live[i].region(), 0, 8);
                    Access rd = Probes.readInside(s, live[i].region(), 0, 8);
                    byte[] expected = Probes.expectedAt(live[i].region(), 0, 8);
                    if (!w.succeeded() || !rd.succeeded() || !Arrays.equals(rd.data(), expected)) {
                        throw Violations.of("MR-TOK-6", "peer write and read of live registration " + i + " with its token "
                                        + u32(live[i].remoteToken()) + " after " + allocations + " more registrations on the adapter",
                                "both succeed and read back what was written", w.describe() + "; " + rd.describe());
                    }
                }
                s.checkMemory("MR-TOK-6", "accesses of the live registrations after " + allocations + " more registrations");
            }
        });
    }
}
