package org.ndktck.tck.properties;

import net.jqwik.api.Property;
import net.jqwik.api.Tag;
import org.ndktck.spec.Mdl;
import org.ndktck.spec.NdkMr;
import org.ndktck.spec.NdkMrFlags;
import org.ndktck.tck.harness.Access;
import org.ndktck.tck.harness.AsyncOp;
import org.ndktck.tck.harness.Created;
import org.ndktck.tck.harness.Outcome;
import org.ndktck.tck.harness.HostBuffer;
import org.ndktck.tck.harness.NdkKit;
import org.ndktck.tck.harness.NdkSession;
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
 * COV-1 at scale: thousands of registrations live at once on ONE adapter all keep granting what they were
 * registered with. A provider whose token table holds fewer entries than it lets live (and silently drops or
 * overwrites the oldest), or whose lookup degrades with the number of live registrations, FAILs here; a provider
 * that refuses a registration for lack of resources (STATUS_INSUFFICIENT_RESOURCES, GEN-CB-5) has reached its
 * limit, which the pages allow: the property stops registering there and checks the registrations it made.
 */
@NdkKit
public class LiveScaleProperties {
    /** Registrations live at once at the smoke profile (or a {@code --tries} below the standard profile's). */
    static final int SMOKE_LIVE = (1 << 10) + 64;
    /** Registrations live at once at the standard profile: 2^12 + 64 (past a table of 2^12 entries). */
    static final int STANDARD_LIVE = (1 << 12) + 64;
    /** Registrations live at once at the deep profile: 2^16 + 64 (past a 16-bit table; the reference's default object budget refuses first). */
    static final int DEEP_LIVE = (1 << 16) + 64;
    /** Registrations started together before their completions are awaited. */
    static final int BATCH = 64;

    /**
     * @param config the run's configuration
     * @return how many registrations to keep live at once (tries per property of the run decide the profile)
     */
    static int liveTarget(TckConfig config) {
        int tries = config.tries().orElse(config.profile().tries());
        if (tries >= TckConfig.Profile.DEEP.tries()) {
            return DEEP_LIVE;
        }
        return tries >= TckConfig.Profile.STANDARD.tries() ? STANDARD_LIVE : SMOKE_LIVE;
    }

    /**
     * COV-1: one-page registrations (remote read and write) are made on one adapter until {@link #liveTarget}
     * are live at once or the provider refuses one for lack of resources (each refused call is made again up to
     * Refusals.SETUP_ATTEMPTS times first); then the peer reads each of them with
     * its token (and writes the first, the last and every 64th) and must find its bytes.
     */
    @Property(tries = 1)
    @Tag("COV-1")
    void thousandsOfLiveRegistrationsOnOneAdapterAllStayUsable() {
        int target = liveTarget(TckConfig.current());
        NdkSession.inTry(s -> {
            try (SessionTools t = SessionTools.of(s)) {
                s.qps();
                s.connectedPeer().ready(); // the peer's scratch MR before the fill: a full adapter refuses nothing the probes need
                int p = s.pageSize();
                int rw = NdkMrFlags.ALLOW_REMOTE_READ | NdkMrFlags.ALLOW_REMOTE_WRITE;
                List<Region> live = new ArrayList<>();
                boolean limitReached = false;
                while (live.size() < target && !limitReached) {
                    int n = Math.min(BATCH, target - live.size());
                    List<NdkMr> mrs = new ArrayList<>();
                    List<HostBuffer> buffers = new ArrayList<>();
                    List<Long> vas = new ArrayList<>();
                    List<Mdl> mdls = new ArrayList<>();
                    List<AsyncOp<NdkMr>> ops = new ArrayList<>();
                    for (int j = 0; j < n && !limitReached; j++) {
                        Created<NdkMr> c = s.createMrRaw(s.target(), false);
                        for (int a = 1; a < Refusals.SETUP_ATTEMPTS && Refusals.isAllowedRefusal(c.status()); a++) {
                            c = s.createMrRaw(s.target(), false);
                        }
                        if (Refusals.isAllowedRefusal(c.status())) {
                            limitReached = true;
                            break;
                        }
                        if (!c.succeeded()) {
                            throw Violations.of("MR-CREATE-2", c.call() + " (MR " + (live.size() + j + 1) + " on this adapter)",
                                    "STATUS_SUCCESS, or STATUS_INSUFFICIENT_RESOURCES at the adapter's limit", c.describe());
                        }
                        HostBuffer b = s.allocate(1);
                        long va = t.freshVa();
                        Mdl mdl = b.mdl(va, 0, p);
                        mrs.add(c.object());
                        buffers.add(b);
                        vas.add(va);
                        mdls.add(mdl);
                        ops.add(t.startRegister(c.object(), mdl, p, rw));
                    }
                    for (int j = 0; j < ops.size(); j++) {
                        Outcome o = t.finish(ops.get(j), "MR-REG-9", "STATUS_SUCCESS, STATUS_PENDING or an error code");
                        for (int a = 1; a < Refusals.SETUP_ATTEMPTS && Refusals.isAllowedRefusal(o.status()); a++) {
                            o = t.finish(t.startRegister(mrs.get(j), mdls.get(j), p, rw), "MR-REG-9",
                                    "STATUS_SUCCESS, STATUS_PENDING or an error code");
                        }
                        if (Refusals.isAllowedRefusal(o.status())) {
                            limitReached = true;
                            continue;
                        }
                        if (!o.succeeded()) {
                            throw Violations.of("MR-REG-10", o.call() + " (registration " + (live.size() + 1) + " live at once on this adapter)",
                                    "STATUS_SUCCESS for a valid registration, or STATUS_INSUFFICIENT_RESOURCES at the adapter's limit",
                                    o.describe());
                        }
                        live.add(new Region(buffers.get(j), 0, vas.get(j), p, s.remoteToken(mrs.get(j))));
                    }
                }
                if (live.isEmpty()) {
                    Refusals.discardIfRefused(org.ndktck.spec.NtStatus.STATUS_INSUFFICIENT_RESOURCES);
                }
                int count = live.size();
                for (int i = 0; i < count; i++) {
                    Region r = live.get(i);
                    boolean write = i == 0 || i == count - 1 || i % 64 == 0;
                    Access w = write ? Probes.writeInside(s, r, 0, 8) : null;
                    Access rd = Probes.readInside(s, r, 0, 8);
                    byte[] expected = Probes.expectedAt(r, 0, 8);
                    if ((w != null && !w.succeeded()) || !rd.succeeded() || !Arrays.equals(rd.data(), expected)) {
                        throw Violations.of("COV-1", "peer " + (w != null ? "write and " : "") + "read of registration " + (i + 1)
                                        + " of " + count + " live at once on one adapter, with its token " + u32(r.remoteToken()),
                                "STATUS_SUCCESS and " + org.ndktck.tck.harness.Hex.bytes(expected)
                                        + ": a registration reported successful grants its flags while it is live, however many others are",
                                (w != null ? w.describe() + "; " : "") + rd.describe()
                                        + (rd.succeeded() ? ", read " + org.ndktck.tck.harness.Hex.bytes(rd.data()) : ""));
                    }
                }
                s.checkMemory("COV-1", "accesses of " + count + " registrations live at once");
            }
        });
    }
}
