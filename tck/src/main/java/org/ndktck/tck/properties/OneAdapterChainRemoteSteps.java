package org.ndktck.tck.properties;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.state.Action;
import net.jqwik.api.state.Transformer;
import org.ndktck.spec.NdkOperationType;
import org.ndktck.spec.NdkSge;
import org.ndktck.tck.RuleViolation;
import org.ndktck.tck.model.AccessKind;
import org.ndktck.tck.model.Grant;
import org.ndktck.tck.model.Judgement;
import org.ndktck.tck.model.ModelMr;
import org.ndktck.tck.model.MrCall;
import org.ndktck.tck.model.MrModel;
import org.ndktck.tck.model.Revoked;
import org.ndktck.tck.harness.QpRef;
import org.ndktck.tck.harness.WrOutcome;
import org.ndktck.tck.harness.Region;
import org.ndktck.tck.harness.SessionTools;
import org.ndktck.tck.harness.Violations;
import org.ndktck.tck.harness.WorkRequest;
import org.ndktck.tck.properties.OneAdapterChainWorld.World;
import org.ndktck.tck.properties.OneAdapterChainWorld.Conn;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.ndktck.tck.harness.Hex.bytes;
import static org.ndktck.tck.harness.Hex.u32;
import static org.ndktck.tck.harness.Hex.u64;
import static org.ndktck.tck.properties.OneAdapterChainWorld.MAX_BAD_INVALIDATIONS;
import static org.ndktck.tck.properties.OneAdapterChainWorld.PICKS;
import static org.ndktck.tck.properties.OneAdapterChainWorld.step;

/**
 * The steps of the one-adapter chain ({@link OneAdapterChainProperties}) that act from the peer: a remote write or
 * read of 1 to 32 bytes through a live or stale token, inside the region or reaching past its end (judged by {@link
 * Judgement}: MR-REG-4, MR-REG-8, MR-FR-9, MR-FR-10, MR-FR-12, MR-FR-20, MR-DEREG-3, INV-4), a remote invalidation
 * with NdkSendAndInvalidate naming a live fast registration, and one naming a bad token (never issued, stale, a local
 * token, or one of the peer's PD) on a connection of its own; after either invalidation every other live registration
 * must still work (COV-3). Region offsets are unsigned byte offsets in a Java long; tokens are 32-bit values in a Java
 * int. Errors: a {@link RuleViolation} naming the broken rule, or the memory check's.
 */
final class OneAdapterChainRemoteSteps {
    private OneAdapterChainRemoteSteps() {
    }

    /** A peer write or read from any connection through a live or stale registration, inside or past it. */
    static final class RemoteAccess implements Action.Independent<World> {
        @Override
        public boolean precondition(World w) {
            return !w.model.lives().isEmpty() || !w.model.revoked().isEmpty();
        }

        @Override
        public Arbitrary<Transformer<World>> transformer() {
            return Combinators.combine(PICKS, PICKS, Arbitraries.of(true, false), Arbitraries.doubles().between(0, 1),
                    Arbitraries.integers().between(1, 32), Arbitraries.of(false, false, false, true)).as((pick, via, write, kf, nSeed, past) ->
                    step("a peer " + (write ? "write" : "read") + " through a live or stale registration (pick " + pick + ", connection " + via
                            + ", " + nSeed + " byte(s)" + (past ? ", reaching past its end" : "") + ")", x -> {
                        List<Object> targets = new ArrayList<>(x.model.lives());
                        targets.addAll(x.model.revoked());
                        access(x, MrModel.pick(x.conns, via), MrModel.pick(targets, pick), write, kf, nSeed, past);
                    }, OneAdapterChainWorld::forgetBytes));
        }
    }

    private static void access(World x, Conn c, Object tg, boolean write, double kf, int nSeed, boolean past) {
        ModelMr owner = tg instanceof ModelMr mm ? mm : null;
        Grant l = owner != null ? owner.grant() : ((Revoked) tg).grant();
        Revoked stale = owner == null ? (Revoked) tg : null;
        Region r = l.region();
        int n = (int) Math.min(nSeed, Math.max(1, r.length()));
        long k = past ? r.length() - n + 1 : (long) (kf * (r.length() - n));
        Judgement j = Judgement.of(l, stale, write ? AccessKind.REMOTE_WRITE : AccessKind.REMOTE_READ, k, n, x.s.readSinkNotRequired(),
                c != x.conns.get(0));
        boolean allowed = j.allowed();
        String refused = j.refusedRule();
        String granted = j.grantedRule();
        int p = x.s.pageSize();
        long scratchOffset = p - n / 2; // the peer's side of the access crosses a page boundary of its buffer
        long bufferOffset = r.bufferOffset() + k;
        boolean landsInBuffer = Long.compareUnsigned(bufferOffset, r.buffer().size() - n) <= 0;
        byte[] data = landsInBuffer ? SessionTools.complement(r.buffer().expected(bufferOffset, n)) : filled(n);
        WrOutcome o;
        byte[] read = null;
        if (write) {
            c.scratch.buffer().put(scratchOffset, data);
            o = x.t.complete(x.t.write(c.peer, new NdkSge[]{c.scratch.sge(scratchOffset, n)}, r.base() + k, r.remoteToken(), 0));
            if (o.succeeded() && allowed) {
                r.buffer().expectWrite(bufferOffset, data);
            }
        } else {
            o = x.t.complete(x.t.read(c.peer, new NdkSge[]{c.scratch.sge(scratchOffset, n)}, r.base() + k, r.remoteToken(), 0));
            read = c.scratch.buffer().read(scratchOffset, n);
            c.scratch.buffer().acceptActual(scratchOffset, n);
        }
        String what = o.call() + " (" + (write ? "write" : "read") + " of " + n + " byte(s) at region byte " + u64(k) + " of "
                + (stale == null ? "live " : "stale (" + stale.why() + ") ") + r + " from " + c + ", made by " + l.what() + ")";
        if (allowed && !o.succeeded()) {
            throw Violations.of(granted, what, "STATUS_SUCCESS: the model allows this access", o.describe());
        }
        if (!allowed && o.succeeded()) {
            throw Violations.of(refused, what, "an error: the model forbids this access (" + j.why() + ")", "it succeeded");
        }
        if (!write && allowed) {
            byte[] expected = r.buffer().expected(bufferOffset, n);
            if (!Arrays.equals(read, expected)) {
                throw Violations.of(granted, what, "the region's bytes " + bytes(expected), "read " + bytes(read));
            }
        }
        x.s.checkMemory(allowed ? granted : refused, what);
    }

    private static byte[] filled(int n) {
        byte[] d = new byte[n];
        Arrays.fill(d, (byte) 0x5A);
        return d;
    }

    /** @return the fast registrations a remote invalidation may name: initialized with RemoteAccess, granting remote access */
    private static List<ModelMr> remotelyInvalidable(World w) {
        return w.model.where(m -> MrCall.REMOTE_INVALIDATE.allowedIn(m.phase(), m.fast()) && m.pages().remoteAccess()
                && (m.grant().remoteRead() || m.grant().remoteWrite()));
    }

    /**
     * The peer sends with NdkSendAndInvalidate naming a live fast registration (on a connection other than the
     * session's): it, and nothing else, ends. When the provider fails the invalidation, that is INV-5's and CQ-3's to
     * judge: the MR and the connection leave the model.
     */
    static final class RemoteInvalidate implements Action.Independent<World> {
        @Override
        public boolean precondition(World w) {
            return w.conns.size() > 1 && !remotelyInvalidable(w).isEmpty();
        }

        @Override
        public Arbitrary<Transformer<World>> transformer() {
            return Combinators.combine(PICKS, PICKS, Arbitraries.integers().between(1, 32)).as((pick, via, n) -> {
                ModelMr[] chosen = new ModelMr[1];
                return step("remote invalidation of a fast-registered MR (pick " + pick + ", connection " + via + ", " + n + " byte(s))", x -> {
                    ModelMr m = MrModel.pick(remotelyInvalidable(x), pick);
                    chosen[0] = m;
                    x.model.calling(m, MrCall.REMOTE_INVALIDATE);
                    Conn c = MrModel.pick(x.conns.subList(1, x.conns.size()), via);
                    int token = m.grant().remoteToken();
                    // c leaves the model while its receive is posted: a step that ends at a refused send (an allowed
                    // refusal) leaves that receive posted, and a later send on c would land in it
                    int at = x.conns.indexOf(c);
                    x.conns.remove(c);
                    WorkRequest recv = x.t.receive(c.target, new NdkSge[]{c.inbox.sge(0, n)}, NdkOperationType.RECEIVE_AND_INVALIDATE);
                    WrOutcome so = x.t.complete(x.t.sendAndInvalidate(c.peer, new NdkSge[]{c.scratch.sge(0, n)}, token, 0));
                    WrOutcome ro = x.t.complete(recv);
                    c.inbox.buffer().acceptActual(0, n);
                    if (!so.succeeded() || !ro.succeeded()) {
                        // the invalidation's own completion is INV-5's and CQ-3's to judge: whether it took effect is not
                        // known, and the receiver may have aborted the connection (INV-6)
                        x.model.unsettle(m);
                        return;
                    }
                    x.conns.add(at, c);
                    String after = " after the peer's " + so.call() + " on " + c + " naming " + m + " (" + m.grant().what() + ")";
                    x.model.invalidated(m, "invalidated remotely");
                    othersStillWork(x, after);
                }, x -> {
                    if (chosen[0] != null) {
                        x.model.unsettle(chosen[0]);
                    }
                });
            });
        }
    }

    /** The kinds of bad token a remote invalidation may carry (COV-3). */
    enum BadToken {
        /** A value no registration of the chain ever had. */
        NEVER_ISSUED,
        /** The remote token of a deregistered or invalidated registration. */
        STALE,
        /** The local token of a live registration, where it differs from every live remote token. */
        LOCAL,
        /** The remote token of a registration of the peer's PD. */
        PEER_PD
    }

    /**
     * On a fresh connection of its own, the peer sends with NdkSendAndInvalidate naming a token that names no live
     * registration of the target's PD: nothing is invalidated (COV-3). The send, the receive and the connection's
     * fate are not judged.
     */
    static final class BadRemoteInvalidate implements Action.Independent<World> {
        @Override
        public boolean precondition(World w) {
            return w.badInvalidations < MAX_BAD_INVALIDATIONS;
        }

        @Override
        public Arbitrary<Transformer<World>> transformer() {
            return Combinators.combine(Arbitraries.of(BadToken.STALE, BadToken.STALE, BadToken.NEVER_ISSUED, BadToken.LOCAL, BadToken.PEER_PD),
                    PICKS, Arbitraries.integers()).as((bad, pick, seed) -> step("remote invalidation with a bad token (" + bad + ", pick "
                            + pick + ")", x -> {
                        Integer token = badToken(x, bad, pick, seed);
                        if (token == null) {
                            // no such token now (no ended registration, no live one, or it names a live registration
                            // again): a token never issued is always at hand, so the step still makes its call
                            token = badToken(x, BadToken.NEVER_ISSUED, pick, seed);
                        }
                        x.badInvalidations++;
                        QpRef[] pair = x.t.connectedPair(0);
                        Conn c = x.connection("a connection of its own (" + (x.badInvalidations) + ")", pair[0], pair[1]);
                        int n = 8;
                        WorkRequest recv = x.t.receive(c.target, new NdkSge[]{c.inbox.sge(0, n)}, NdkOperationType.RECEIVE_AND_INVALIDATE)
                                .acceptEitherReceiveType();
                        WrOutcome so = x.t.complete(x.t.sendAndInvalidate(c.peer, new NdkSge[]{c.scratch.sge(0, n)}, token, 0));
                        boolean refusedInline = !org.ndktck.spec.NtStatus.STATUS_SUCCESS.equals(so.returned());
                        String ro = refusedInline && recv.entry() == null ? "not completed" : x.t.complete(recv).describe();
                        c.inbox.buffer().acceptActual(0, n);
                        othersStillWork(x, " after the peer's " + so.call() + " with a " + bad + " token " + u32(token) + " on " + c
                                + " (send: " + so.describe() + "; receive: " + ro + ")");
                    }, OneAdapterChainWorld::forgetBytes));
        }

        private static Integer badToken(World x, BadToken bad, int pick, int seed) {
            List<Integer> liveRemote = new ArrayList<>();
            x.model.lives().forEach(m -> liveRemote.add(m.grant().remoteToken()));
            x.fixtures.stream().filter(f -> f.side() == x.s.target()).forEach(f -> liveRemote.add(f.remoteToken()));
            Integer token = switch (bad) {
                case NEVER_ISSUED -> {
                    List<Integer> known = new ArrayList<>(liveRemote);
                    x.model.revoked().forEach(st -> known.add(st.grant().remoteToken()));
                    x.model.lives().forEach(m -> known.add(m.grant().localToken()));
                    x.fixtures.forEach(f -> {
                        known.add(f.remoteToken());
                        known.add(f.localToken());
                    });
                    int v = 0x5EED_0000 ^ seed * 0x9E3779B1;
                    while (v == 0 || known.contains(v)) {
                        v = v * 31 + 11;
                    }
                    yield v;
                }
                case STALE -> {
                    yield x.model.revoked().isEmpty() ? null : MrModel.pick(x.model.revoked(), pick).grant().remoteToken();
                }
                case LOCAL -> {
                    yield x.model.lives().isEmpty() ? null : MrModel.pick(x.model.lives(), pick).grant().localToken();
                }
                case PEER_PD -> x.conns.get(0).scratch.remoteToken();
            };
            // a token that a live registration of the target's PD holds now names it: not a bad token
            return token == null || liveRemote.contains(token) ? null : token;
        }
    }

    /**
     * COV-3: after a remote invalidation every live registration still takes a peer write and a read (as its
     * flags allow) with its token through the session's connection, with the right bytes.
     */
    private static void othersStillWork(World x, String after) {
        Conn c = x.conns.get(0);
        int p = x.s.pageSize();
        for (ModelMr m : x.model.lives()) {
            Grant l = m.grant();
            Region r = l.region();
            int n = (int) Math.min(8, r.length());
            long scratchOffset = p - n / 2;
            if (l.remoteWrite()) {
                byte[] data = SessionTools.complement(r.buffer().expected(r.bufferOffset(), n));
                c.scratch.buffer().put(scratchOffset, data);
                WrOutcome o = x.t.complete(x.t.write(c.peer, new NdkSge[]{c.scratch.sge(scratchOffset, n)}, r.base(),
                        r.remoteToken(), 0));
                if (!o.succeeded()) {
                    throw Violations.of("COV-3", o.call() + " into " + m + " (" + l.what() + ") with its token " + u32(r.remoteToken()) + after,
                            "STATUS_SUCCESS: a remote invalidation ends only the registration its token names", o.describe());
                }
                r.buffer().expectWrite(r.bufferOffset(), data);
            }
            if (!l.remoteWrite() && !l.remoteRead()) {
                // no remote rights: the target writes its first bytes to the peer through its local token
                WrOutcome o = x.t.complete(x.t.write(c.target, new NdkSge[]{new NdkSge(r.base(), n, l.localToken())},
                        x.landing.va(), x.landing.remoteToken(), 0));
                byte[] landed = x.landing.buffer().read(0, n);
                x.landing.buffer().acceptActual(0, n);
                byte[] expected = r.buffer().expected(r.bufferOffset(), n);
                if (!o.succeeded() || !Arrays.equals(landed, expected)) {
                    throw Violations.of("COV-3", o.call() + " from " + m + " (" + l.what() + ") with its local token " + u32(l.localToken()) + after,
                            "STATUS_SUCCESS and " + bytes(expected) + " at the peer: a remote invalidation ends only the registration its token names",
                            o.describe() + (o.succeeded() ? ", landed " + bytes(landed) : ""));
                }
            }
            if (l.remoteRead()) {
                WrOutcome o = x.t.complete(x.t.read(c.peer, new NdkSge[]{c.scratch.sge(scratchOffset, n)}, r.base(),
                        r.remoteToken(), 0));
                byte[] read = c.scratch.buffer().read(scratchOffset, n);
                c.scratch.buffer().acceptActual(scratchOffset, n);
                byte[] expected = r.buffer().expected(r.bufferOffset(), n);
                if (!o.succeeded() || !Arrays.equals(read, expected)) {
                    throw Violations.of("COV-3", o.call() + " of " + m + " (" + l.what() + ") with its token " + u32(r.remoteToken()) + after,
                            "STATUS_SUCCESS and " + bytes(expected) + ": a remote invalidation ends only the registration its token names",
                            o.describe() + (o.succeeded() ? ", read " + bytes(read) : ""));
                }
            }
        }
        x.s.checkMemory("COV-3", "accesses of the live registrations" + after);
    }
}
