package org.ndktck.tck.properties;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tag;
import net.jqwik.api.constraints.IntRange;
import org.ndktck.spec.Mdl;
import org.ndktck.spec.NdkMr;
import org.ndktck.spec.NdkMrFlags;
import org.ndktck.spec.NdkOpFlags;
import org.ndktck.spec.NdkOperationType;
import org.ndktck.spec.NdkPd;
import org.ndktck.spec.NdkSge;
import org.ndktck.spec.NtStatus;
import org.ndktck.tck.RuleViolation;
import org.ndktck.tck.harness.CoverageClasses;
import org.ndktck.tck.harness.Access;
import org.ndktck.tck.harness.FastRegion;
import org.ndktck.tck.harness.Outcome;
import org.ndktck.tck.harness.Registered;
import org.ndktck.tck.harness.WrOutcome;
import org.ndktck.tck.harness.AsyncOp;
import org.ndktck.tck.harness.Hex;
import org.ndktck.tck.harness.HostBuffer;
import org.ndktck.tck.harness.NdkKit;
import org.ndktck.tck.harness.NdkSession;
import org.ndktck.tck.harness.Probes;
import org.ndktck.tck.harness.Region;
import org.ndktck.tck.harness.SessionTools;
import org.ndktck.tck.harness.Violations;
import org.ndktck.tck.harness.WorkRequest;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntSupplier;

import static org.ndktck.tck.harness.Hex.u32;

/**
 * Properties of NdkGetRemoteTokenFromMr and NdkGetLocalTokenFromMr (catalog section "MR tokens").
 * MR-TOK-3 (no token read before the registration completed) binds the kit and is obeyed by it; MR-TOK-4
 * is informational. Tokens are UINT32 values carried in ints and printed in hex.
 */
@NdkKit
public class TokenProperties {
    private static final int REMOTE_RW = NdkMrFlags.ALLOW_REMOTE_WRITE | NdkMrFlags.ALLOW_REMOTE_READ;
    private static final java.util.concurrent.ExecutorService READERS = java.util.concurrent.Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "ndk-tck-token-reader");
        t.setDaemon(true);
        return t;
    });

    /** Where MR-TOK-1 reads the remote token. */
    enum ReadAt {
        /** Inside the completion callback when the call pended, right after an inline return otherwise. */
        INSIDE_COMPLETION,
        /** Right after the call ended. */
        RIGHT_AFTER
    }

    /**
     * Calls a token getter and charges what goes wrong to {@code rule}: a provider exception (GEN-EXC-1)
     * or a call that does not return (GEN-TIME-1) is also a breach of the token rule.
     */
    static int token(String rule, String what, IntSupplier getter) {
        try {
            return getter.getAsInt();
        } catch (RuleViolation v) {
            if (v.ruleId().equals("GEN-EXC-1") || v.ruleId().equals("GEN-TIME-1")) {
                throw Violations.of(rule, what, "the token, returned without an exception within the call bound", v.getMessage(), v);
            }
            throw v;
        }
    }

    /**
     * MR-TOK-1: the remote token can be read as soon as NdkRegisterMr or NdkInitializeFastRegisterMr has
     * completed: from inside the completion callback (after STATUS_PENDING) or right after an inline
     * success or the completion. The call returns within its bound without an exception, and a
     * registration's token read that way works: the peer writes and reads back the region's bytes with
     * it.
     */
    @Property(tries = 200, edgeCases = EdgeCasesMode.MIXIN)
    @CoverageClasses(4)
    @Tag("MR-TOK-1")
    void theRemoteTokenIsReadableOnceTheCallCompleted(@ForAll ReadAt at, @ForAll boolean fastRegisterMr,
                                                      @ForAll @IntRange(min = 1, max = 64) int n) {
        SectionChecks.cover("read at", at + (fastRegisterMr ? " of an initialization" : " of a registration"), READ_AT_CLASSES);
        NdkSession.inTry(s -> {
            try (SessionTools t = SessionTools.of(s)) {
                s.qps();
                int p = s.pageSize();
                NdkMr mr = s.createMr(s.target(), fastRegisterMr);
                AtomicReference<Object> inside = new AtomicReference<>();
                if (at == ReadAt.INSIDE_COMPLETION) {
                    s.insideNextCallback(op -> {
                        if (NtStatus.STATUS_SUCCESS.equals(op.completedStatus())) {
                            try {
                                inside.set(mr.getRemoteToken());
                            } catch (RuntimeException | Error e) {
                                inside.set(e);
                            }
                        }
                    });
                }
                HostBuffer b = s.allocate(1);
                long va = t.freshVa();
                Mdl mdl = b.mdl(va, 0, p);
                AsyncOp<NdkMr> op = fastRegisterMr ? t.startInitialize(mr, 1, true)
                        : t.startRegister(mr, mdl, p, REMOTE_RW | t.readSinkFlag());
                s.insideNextCallback(null);
                Outcome o = fastRegisterMr
                        ? t.finish(op, "MR-FRI-8", "STATUS_SUCCESS, STATUS_PENDING, STATUS_IMPLEMENTATION_LIMIT or another error code")
                        : t.finish(op, "MR-REG-9", "STATUS_SUCCESS, STATUS_PENDING, STATUS_INVALID_PARAMETER, STATUS_INSUFFICIENT_RESOURCES or another error code");
                SectionChecks.requireRegistered(s, o);
                String where;
                int token;
                if (inside.get() instanceof Throwable e) {
                    throw Violations.of("MR-TOK-1", "NdkGetRemoteTokenFromMr() from inside the completion of " + o.call(),
                            "the token, returned without an exception", "the provider threw " + e, e);
                } else if (inside.get() instanceof Integer v) {
                    token = v;
                    where = "from inside the completion callback of " + o.call();
                } else {
                    token = token("MR-TOK-1", "NdkGetRemoteTokenFromMr() right after " + o.call(), () -> s.remoteToken(mr));
                    where = "right after " + o.call() + " " + o.describe();
                }
                if (fastRegisterMr) {
                    return;
                }
                Region r = new Region(b, 0, va, p, token);
                int k = (int) ((long) (p - n) * (token & 0xFFFF) / 0xFFFF);
                Access w = Probes.writeInside(s, r, k, n);
                Access rd = Probes.readInside(s, r, k, n);
                if (!w.succeeded() || !rd.succeeded() || !Arrays.equals(rd.data(), Probes.actualAt(r, k, n))) {
                    throw Violations.of("MR-TOK-1", "remote token " + u32(token) + " read " + where + "; then " + w.describe() + "; "
                                    + rd.describe(), "the token names the new registration: the write and the read back succeed",
                            w.outcome().describe() + "; " + rd.outcome().describe()
                                    + (rd.succeeded() ? ", read " + Hex.differing(Probes.actualAt(r, k, n), rd.data(), k, "region byte") : ""));
                }
            }
        });
    }

    /** The region MR-TOK-2 uses the local token of. */
    enum Kind {
        /** Registered with NdkRegisterMr. */
        REGISTERED,
        /** Fast-registered. */
        FAST_REGISTERED
    }

    /**
     * MR-TOK-2: the local token of a completed registration (or of a completed fast registration) addresses
     * the region in an SGE: an NdkWrite and an NdkSend whose source SGE is {VA + k, n, local token} succeed,
     * and the peer's memory then holds the region's bytes.
     */
    @CoverageClasses(2)
    @Property(tries = 300, edgeCases = EdgeCasesMode.MIXIN)
    @Tag("MR-TOK-2")
    void theLocalTokenAddressesTheRegionInAnSge(@ForAll Kind kind, @ForAll @IntRange(min = 0, max = 4095) int kSeed,
                                                @ForAll @IntRange(min = 1, max = 256) int n) {
        SectionChecks.cover("kind", kind.name(), List.of(Kind.REGISTERED.name(), Kind.FAST_REGISTERED.name()));
        NdkSession.inTry(s -> {
            try (SessionTools t = SessionTools.of(s)) {
                s.qps();
                int p = s.pageSize();
                int len = Math.min(n, p / 2);
                int k = kSeed % (p - len + 1);
                HostBuffer buffer;
                long base;
                long bufferOffset;
                int local;
                if (kind == Kind.REGISTERED) {
                    Registered r = t.registered(s.target(), 1, 0, p, NdkMrFlags.ALLOW_LOCAL_READ);
                    buffer = r.buffer();
                    base = r.va();
                    bufferOffset = 0;
                    local = token("MR-TOK-2", "NdkGetLocalTokenFromMr()", () -> s.localToken(r.mr()));
                } else {
                    FastRegion f = t.fastRegistered(1, 0, 0, false);
                    buffer = f.buffer();
                    base = f.base();
                    bufferOffset = 0;
                    local = token("MR-TOK-2", "NdkGetLocalTokenFromMr()", () -> s.localToken(f.mr()));
                }
                Registered sink = t.registered(s.peer(), 1, 0, p, NdkMrFlags.ALLOW_REMOTE_WRITE);
                NdkSge src = new NdkSge(base + k, len, local);
                byte[] expected = buffer.read(bufferOffset + k, len);
                WrOutcome w = t.complete(t.write(t.target(), new NdkSge[]{src}, sink.va(), sink.remoteToken(), 0));
                byte[] got = sink.buffer().read(0, len);
                if (!w.succeeded() || !Arrays.equals(got, expected)) {
                    throw Violations.of("MR-TOK-2", w.call(), "STATUS_SUCCESS and the region's bytes " + Hex.bytes(expected) + " at the peer",
                            w.describe() + ", the peer holds " + Hex.differing(expected, got, k, "region byte"));
                }
                sink.buffer().expectWrite(0, expected);
                WorkRequest recv = t.receive(t.peer(), new NdkSge[]{sink.sge(p / 2, len)}, NdkOperationType.RECEIVE);
                WrOutcome send = t.complete(t.send(t.target(), new NdkSge[]{src}, 0));
                if (!send.succeeded()) {
                    throw Violations.of("MR-TOK-2", send.call(), "STATUS_SUCCESS for a send from the region through its local token",
                            send.describe());
                }
                WrOutcome ro = t.complete(recv);
                byte[] got2 = sink.buffer().read(p / 2, len);
                if (!send.succeeded() || !ro.succeeded() || !Arrays.equals(got2, expected)) {
                    throw Violations.of("MR-TOK-2", send.call(), "STATUS_SUCCESS and the region's bytes " + Hex.bytes(expected)
                            + " in the peer's receive buffer", send.describe() + "; the receive " + ro.describe() + ", the peer holds "
                            + Hex.differing(expected, got2, k, "region byte"));
                }
                sink.buffer().expectWrite(p / 2, expected);
            }
        });
    }

    /**
     * MR-TOK-5: between the completion of a registration (or of a fast registration) and the next change
     * of the MR, the remote and local tokens read again (up to 8 times, from the property's thread and from
     * {@code threads} other threads at once) are the same as the first read.
     */
    @Property(tries = 200, edgeCases = EdgeCasesMode.MIXIN)
    @Tag("MR-TOK-5")
    void aTokenReadTwiceIsTheSame(@ForAll Kind kind, @ForAll @IntRange(min = 2, max = 8) int reads,
                                  @ForAll @IntRange(min = 0, max = 3) int threads) {
        NdkSession.inTry(s -> {
            try (SessionTools t = SessionTools.of(s)) {
                s.qps();
                int p = s.pageSize();
                NdkMr mr = kind == Kind.REGISTERED ? t.registered(s.target(), 1, 0, p, REMOTE_RW | t.readSinkFlag()).mr()
                        : t.fastRegistered(1, 0, NdkOpFlags.ALLOW_REMOTE_READ, true).mr();
                int remote = s.remoteToken(mr);
                int local = s.localToken(mr);
                List<String> seen = new ArrayList<>();
                for (int i = 1; i < reads; i++) {
                    int r2 = s.remoteToken(mr);
                    int l2 = s.localToken(mr);
                    if (r2 != remote || l2 != local) {
                        seen.add("read " + (i + 1) + ": remote " + u32(r2) + ", local " + u32(l2));
                    }
                }
                if (threads > 0) {
                    List<String> other = java.util.Collections.synchronizedList(new ArrayList<>());
                    List<java.util.concurrent.Future<?>> fs = new ArrayList<>();
                    for (int i = 0; i < threads; i++) {
                        fs.add(READERS.submit(() -> {
                            for (int j = 0; j < reads; j++) {
                                int r2 = mr.getRemoteToken();
                                int l2 = mr.getLocalToken();
                                if (r2 != remote || l2 != local) {
                                    other.add("another thread: remote " + u32(r2) + ", local " + u32(l2));
                                }
                            }
                        }));
                    }
                    for (java.util.concurrent.Future<?> f : fs) {
                        try {
                            f.get(s.bounds().callNanos(), java.util.concurrent.TimeUnit.NANOSECONDS);
                        } catch (java.util.concurrent.TimeoutException e) {
                            throw Violations.of("GEN-TIME-1", "NdkGetRemoteTokenFromMr() from another thread", "the call returns within the bound", "it did not");
                        } catch (java.util.concurrent.ExecutionException e) {
                            throw Violations.of("GEN-EXC-1", "NdkGetRemoteTokenFromMr() from another thread", "no exception", String.valueOf(e.getCause()), e.getCause());
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }
                    seen.addAll(other);
                }
                if (!seen.isEmpty()) {
                    throw Violations.of("MR-TOK-5", "NdkGetRemoteTokenFromMr() / NdkGetLocalTokenFromMr() on an unchanged "
                                    + (kind == Kind.REGISTERED ? "registration" : "fast registration"),
                            "the first values every time: remote " + u32(remote) + ", local " + u32(local), String.join("; ", seen));
                }
            }
        });
    }

    /** The classes of {@link #theRemoteTokenIsReadableOnceTheCallCompleted}: where the token is read, of which call. */
    static final List<String> READ_AT_CLASSES = java.util.Arrays.stream(ReadAt.values())
            .flatMap(a -> java.util.stream.Stream.of(a + " of a registration", a + " of an initialization")).toList();

    /** The class of a mix of registrations (0: NdkRegisterMr, 1: fast registration, 2: NdkRegisterMr on another PD). */
    static String mixClass(List<Integer> mix) {
        return mix.contains(0) && mix.contains(1) ? "normal and fast" : mix.contains(1) ? "fast only" : "normal only";
    }

    @Provide
    Arbitrary<List<Integer>> registrationMixes() {
        return Arbitraries.integers().between(0, 2).list().ofMinSize(2).ofMaxSize(6)
                .edgeCases(c -> c.add(List.of(0, 0), List.of(1, 1), List.of(0, 1, 2)));
    }

    /**
     * MR-TOK-6: registrations live at the same time on one adapter (NdkRegisterMr on the target PD (0), fast
     * registrations on the target PD (1), NdkRegisterMr on another PD (2)) have pairwise distinct remote
     * tokens within each PD (a token is used through a QP, whose PD scopes it: the same value on two PDs names a
     * region of each), and a peer read with each target region's token returns that region's own bytes.
     */
    @Property
    @Tag("MR-TOK-6")
    void liveRegistrationsNeverShareARemoteToken(@ForAll("registrationMixes") List<Integer> mix) {
        Checks.cover("kinds", mixClass(mix), this::registrationMixes, TokenProperties::mixClass);
        NdkSession.inTry(s -> {
            try (SessionTools t = SessionTools.of(s)) {
                s.qps();
                int p = s.pageSize();
                NdkPd other = null;
                Map<String, String> byToken = new HashMap<>();
                List<Region> reachable = new ArrayList<>();
                for (int i = 0; i < mix.size(); i++) {
                    int kind = mix.get(i);
                    int token;
                    String what;
                    if (kind == 1) {
                        FastRegion f = t.fastRegistered(1, 0, NdkOpFlags.ALLOW_REMOTE_READ, true);
                        token = f.token();
                        reachable.add(f.region());
                        what = "fast registration " + i;
                    } else if (kind == 0) {
                        Registered r = t.registered(s.target(), 1, 0, p, NdkMrFlags.ALLOW_REMOTE_READ);
                        token = r.remoteToken();
                        reachable.add(r.region());
                        what = "registration " + i + " on the target PD";
                    } else {
                        if (other == null) {
                            other = t.createPd();
                        }
                        NdkMr mr = t.createMr(other, false);
                        HostBuffer b = s.allocate(1);
                        Outcome o = s.register(mr, b.mdl(t.freshVa(), 0, p), p, NdkMrFlags.ALLOW_REMOTE_READ);
                        SectionChecks.requireRegistered(s, o);
                        token = s.remoteToken(mr);
                        what = "registration " + i + " on a third PD";
                    }
                    // a remote access is made through a QP, whose PD scopes the token: only registrations of one PD
                    // must differ (a value shared across PDs reaches each PD's own region only)
                    String before = byToken.putIfAbsent((kind == 2 ? "other PD " : "target PD ") + token, what);
                    if (before != null) {
                        throw Violations.of("MR-TOK-6", "NdkGetRemoteTokenFromMr() of " + what, "a remote token no other live registration has",
                                u32(token) + ", the remote token of " + before + " as well");
                    }
                }
                for (Region r : reachable) {
                    int n = 16;
                    Access a = Probes.readInside(s, r, 0, n);
                    byte[] own = Probes.expectedAt(r, 0, n);
                    if (!a.succeeded() || !Arrays.equals(a.data(), own)) {
                        throw Violations.of("MR-TOK-6", a.describe(), "the bytes of the region token " + u32(r.remoteToken())
                                + " names: " + Hex.bytes(own), a.outcome().describe() + (a.succeeded() ? ", read " + Hex.differing(own, a.data(), 0, "region byte") : ""));
                    }
                }
            }
        });
    }
}
