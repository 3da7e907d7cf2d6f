package org.ndktck.tck.properties;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tag;
import org.ndktck.spec.NdkMrFlags;
import org.ndktck.spec.NdkOperationType;
import org.ndktck.spec.NdkSge;
import org.ndktck.tck.generators.Limits;
import org.ndktck.tck.generators.RegPlan;
import org.ndktck.tck.generators.RegisterPlans;
import org.ndktck.tck.harness.Access;
import org.ndktck.tck.harness.Outcome;
import org.ndktck.tck.harness.QpRef;
import org.ndktck.tck.harness.Registered;
import org.ndktck.tck.harness.WrOutcome;
import org.ndktck.tck.harness.Refusals;
import org.ndktck.tck.harness.NdkKit;
import org.ndktck.tck.harness.NdkSession;
import org.ndktck.tck.harness.Probes;
import org.ndktck.tck.harness.RegScenario;
import org.ndktck.tck.harness.Region;
import org.ndktck.tck.harness.SessionTools;
import org.ndktck.tck.harness.Violations;
import org.ndktck.tck.harness.WorkRequest;

/**
 * Properties of NdkDeregisterMr (catalog section "NdkDeregisterMr"; the NDK_FN_DEREGISTER_MR page).
 * MR-DEREG-1 (only a registered MR is deregistered) binds the kit and is obeyed by it; MR-DEREG-4 is
 * informational.
 */
@NdkKit
public class DeregisterProperties {

    @Provide
    Arbitrary<RegPlan> validRegistrations() {
        return RegisterPlans.valid(Limits.current());
    }

    /**
     * MR-DEREG-2: deregistering a registered MR (any valid registration: chains of one to three MDLs,
     * regions ending at 2^64 − 1, Length past 2^32) ends in STATUS_SUCCESS, inline or through exactly one
     * completion; the returned status is STATUS_SUCCESS, STATUS_PENDING or an error code (the session
     * checks the table and the callback accounting).
     */
    @Property
    @Tag("MR-DEREG-2")
    void deregisteringARegisteredMrSucceeds(@ForAll("validRegistrations") RegPlan plan) {
        Checks.cover("case", plan.edge(), this::validRegistrations, RegPlan::edge);
        NdkSession.inTry(s -> deregister(s, plan));
    }

    private static void deregister(NdkSession s, RegPlan plan) {
        {
            RegScenario sc = RegScenario.prepare(s, plan);
            Outcome reg = sc.register();
            SectionChecks.requireRegistered(s, reg);
            Outcome o = s.deregister(sc.mr());
            Refusals.discardIfRefused(o.status()); // MR-DEREG-2 "other status codes": a shortage judges nothing
            if (!o.succeeded()) {
                throw Violations.of("MR-DEREG-2", o.call() + " after " + reg.call(),
                        "STATUS_SUCCESS, inline or through the completion", o.describe());
            }
        }
    }

    /** What MR-DEREG-3 probes after the deregistration: a region shape and the offsets probed. */
    record Stale(int pages, int offset, long length, long k, int n, int flags) {
    }

    @Provide
    Arbitrary<Stale> staleProbes() {
        int p = Limits.current().pageSize();
        return Combinators.combine(Arbitraries.integers().between(1, 3), Arbitraries.integers().between(0, p - 1),
                Arbitraries.doubles().between(0, 1), Arbitraries.doubles().between(0, 1), Arbitraries.integers().between(1, 64),
                Arbitraries.of(NdkMrFlags.ALLOW_REMOTE_WRITE | NdkMrFlags.ALLOW_REMOTE_READ,
                        NdkMrFlags.ALLOW_REMOTE_WRITE | NdkMrFlags.ALLOW_REMOTE_READ | NdkMrFlags.RDMA_READ_SINK))
                .as((pages, off, lf, kf, n, flags) -> {
                    long max = (long) pages * p - off;
                    long length = Math.max(1, (long) Math.ceil(lf * max));
                    int nn = (int) Math.min(n, length);
                    long k = (long) Math.floor(kf * (length - nn));
                    return new Stale(pages, off, length, k, nn, flags);
                }).edgeCases(c -> c.add(new Stale(1, 0, p, 0, 64, 0x7), new Stale(2, p - 1, p + 1, p, 1, 0x7)));
    }

    /**
     * MR-DEREG-3 (MUST, kit interpretation): once NdkDeregisterMr has completed, the old remote token no
     * longer lets the peer read or write bytes that were inside the region, and the old local token no longer
     * serves as a source (NdkWrite, NdkSend) or a sink (NdkReceive, NdkRead) of the target's own requests.
     * Every such request fails (inline or with an error completion) and no byte changes anywhere (guard
     * frames and painted buffers are checked). Before the deregistration the same accesses are made once
     * to show the tokens worked.
     */
    @Property
    @Tag("MR-DEREG-3")
    void tokensGrantNothingAfterDeregistration(@ForAll("staleProbes") Stale t) {
        NdkSession.inTry(s -> {
            try (SessionTools tools = SessionTools.of(s)) {
                stale(s, tools, t);
            }
        });
    }

    private static void stale(NdkSession s, SessionTools tools, Stale t) {
        {
            s.qps();
            int sink = tools.readSinkFlag();
            Registered r = tools.registered(s.target(), t.pages(), t.offset(), t.length(), t.flags() | sink);
            Registered peerSink = tools.registered(s.peer(), 1, 0, s.pageSize(),
                    NdkMrFlags.ALLOW_REMOTE_WRITE | NdkMrFlags.ALLOW_REMOTE_READ);
            Region region = r.region();
            Access before = Probes.readInside(s, region, t.k(), t.n());
            if (!before.succeeded()) {
                throw Violations.of("MR-REG-4", before.describe(), "a peer read inside a live region with remote read succeeds",
                        before.outcome().describe());
            }
            Outcome o = s.deregister(r.mr());
            Refusals.discardIfRefused(o.status()); // MR-DEREG-2 "other status codes": a shortage judges nothing
            if (!o.succeeded()) {
                throw Violations.of("MR-DEREG-2", o.call(), "STATUS_SUCCESS for a registered MR", o.describe());
            }
            String after = " after " + o.call() + " " + o.describe();
            Access w = Probes.writeInside(s, region, t.k(), t.n());
            if (w.succeeded()) {
                throw Violations.of("MR-DEREG-3", w.describe() + after, "an error: the old remote token grants nothing", "it succeeded");
            }
            Access rd = Probes.readInside(s, region, t.k(), t.n());
            if (rd.succeeded()) {
                throw Violations.of("MR-DEREG-3", rd.describe() + after, "an error: the old remote token grants nothing",
                        "it succeeded and read " + org.ndktck.tck.harness.Hex.bytes(rd.data()));
            }
            NdkSge local = r.sge(t.k(), t.n());
            QpRef target = tools.target();
            WrOutcome lw = tools.complete(tools.write(target, new NdkSge[]{local}, peerSink.va(), peerSink.remoteToken(), 0));
            if (lw.succeeded()) {
                throw Violations.of("MR-DEREG-3", lw.call() + after, "an error: the old local token is no source any more", lw.describe());
            }
            Access lr = s.targetReadInto(local, 0);
            if (lr.succeeded()) {
                throw Violations.of("MR-DEREG-3", lr.describe() + after, "an error: the old local token is no sink any more",
                        lr.outcome().describe());
            }
            WorkRequest recv = tools.receive(target, new NdkSge[]{local}, NdkOperationType.RECEIVE);
            WorkRequest send = tools.send(tools.peer(), new NdkSge[]{peerSink.sge(0, t.n())}, 0);
            WrOutcome ro = tools.complete(recv);
            tools.complete(send);
            if (ro.succeeded()) {
                throw Violations.of("MR-DEREG-3", ro.call() + after, "an error: the old local token is no receive sink any more",
                        ro.describe());
            }
            s.checkMemory("MR-DEREG-3", "accesses with the tokens of a deregistered region" + after);
        }
    }
}
