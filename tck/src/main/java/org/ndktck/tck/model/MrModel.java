package org.ndktck.tck.model;

import org.ndktck.spec.NdkMr;
import org.ndktck.tck.harness.Violations;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

import static org.ndktck.tck.harness.Hex.u32;

/**
 * The MRs of one adapter as the NDKPI pages allow them to behave: each MR's phase and live registration, every
 * registration that has ended (and the rule an access through it breaks), and the tokens of registrations outside
 * the model that are live all through (a chain's own fixtures). One state machine serves every stateful property.
 *
 * <p>The transitions: a property asks {@link #eligible} which MRs a call may be made on (the consumer obligations
 * of {@link MrCall#allowedIn}: the model never makes a call a consumer must not make), makes the call on the
 * provider, and reports the outcome the provider chose: {@link #registered}, {@link #fastRegistered} and
 * {@link #initialized} for a success; {@link #deregistered}, {@link #invalidated} and {@link #closed} for the end of a
 * registration; {@link #unsettle} for an allowed refusal that leaves the MR's state unknown. An allowed refusal of
 * NdkRegisterMr or NdkInitializeFastRegisterMr leaves the MR {@link MrPhase#NEW} (nothing to report).
 */
public final class MrModel {
    private final Map<Integer, ModelMr> mrs = new LinkedHashMap<>();
    private final List<Revoked> revoked = new ArrayList<>();
    private final Map<Integer, String> foreignTokens = new LinkedHashMap<>();
    private final Coverage coverage = new Coverage();
    private int next = 1;

    /**
     * Adds an MR the provider created (NdkCreateMr succeeded).
     *
     * @param mr   the provider's MR
     * @param fast its FastRegister argument
     * @return the model's MR, in {@link MrPhase#NEW}
     */
    public ModelMr created(NdkMr mr, boolean fast) {
        ModelMr m = new ModelMr(next++, mr, fast);
        mrs.put(m.id(), m);
        return m;
    }

    /**
     * Records a registration outside the model, on the PD of the model's MRs, that stays live all through (a chain's
     * own scratch buffers): no registration of the model may share its remote token (MR-TOK-6). A registration of
     * another PD must not be recorded: the same value on two PDs is allowed.
     *
     * @param remoteToken its remote token (unsigned 32-bit)
     * @param what        what it is, for messages
     */
    public void foreign(int remoteToken, String what) {
        foreignTokens.put(remoteToken, what);
    }

    /** @return the MRs not closed, in creation order */
    public List<ModelMr> all() {
        return List.copyOf(mrs.values());
    }

    /**
     * @param p a test
     * @return the MRs not closed that pass it
     */
    public List<ModelMr> where(Predicate<ModelMr> p) {
        return mrs.values().stream().filter(p).toList();
    }

    /**
     * @param phases phases
     * @return the MRs in one of them
     */
    public List<ModelMr> in(MrPhase... phases) {
        List<MrPhase> ps = Arrays.asList(phases);
        return where(m -> ps.contains(m.phase));
    }

    /**
     * @param call a call
     * @return the MRs a consumer may make it on now
     */
    public List<ModelMr> eligible(MrCall call) {
        return where(m -> call.allowedIn(m.phase, m.fast()));
    }

    /** @return the MRs holding a live registration */
    public List<ModelMr> lives() {
        return where(m -> m.grant != null);
    }

    /** @return the registrations that have ended, oldest first */
    public List<Revoked> revoked() {
        return List.copyOf(revoked);
    }

    /** @return the (state, call) pairs this model's calls exercised */
    public Coverage coverage() {
        return coverage;
    }

    /**
     * Counts a call about to be made on an MR and checks that a consumer may make it (a kit defect otherwise).
     *
     * @param m    the MR
     * @param call the call
     * @throws IllegalStateException when the pages forbid the consumer this call in the MR's phase
     */
    public void calling(ModelMr m, MrCall call) {
        if (!call.allowedIn(m.phase, m.fast())) {
            throw new IllegalStateException("the kit must not make " + call + " on " + m + " in phase " + m.phase);
        }
        coverage.count(m.phase, call);
    }

    /**
     * NdkRegisterMr succeeded: checks that its remote token is unique among live registrations (MR-TOK-6).
     *
     * @param m     the MR (phase NEW, or DEREGISTERED for an accepted {@link MrCall#REREGISTER})
     * @param grant what it grants
     */
    public void registered(ModelMr m, Grant grant) {
        requireUnique(m, grant.remoteToken(), grant.what());
        m.grant = grant;
        m.phase = MrPhase.REGISTERED;
    }

    /**
     * NdkInitializeFastRegisterMr succeeded (and the kit mapped the pages for it).
     *
     * @param m     the MR (phase NEW)
     * @param pages what initialization fixed
     */
    public void initialized(ModelMr m, FastPages pages) {
        m.pages = pages;
        m.phase = MrPhase.INITIALIZED;
    }

    /**
     * NdkFastRegister completed with success: checks that its remote token is unique among live registrations.
     *
     * @param m     the MR (phase INITIALIZED or INVALIDATED)
     * @param grant what it grants
     */
    public void fastRegistered(ModelMr m, Grant grant) {
        requireUnique(m, grant.remoteToken(), grant.what());
        m.grant = grant;
        m.phase = MrPhase.FAST_REGISTERED;
    }

    /**
     * NdkDeregisterMr succeeded: the registration grants nothing from now on (MR-DEREG-3).
     *
     * @param m the MR (phase REGISTERED)
     */
    public void deregistered(ModelMr m) {
        end(m, "MR-DEREG-3", "deregistered");
        m.phase = MrPhase.DEREGISTERED;
    }

    /**
     * NdkInvalidate, or the peer's NdkSendAndInvalidate, completed with success: the registration grants nothing from
     * now on (INV-4), and the MR may be fast-registered again.
     *
     * @param m   the MR (phase FAST_REGISTERED)
     * @param how how it was invalidated, for messages
     */
    public void invalidated(ModelMr m, String how) {
        end(m, "INV-4", how);
        m.phase = MrPhase.INVALIDATED;
    }

    /**
     * NdkCloseMr finished: the MR leaves the model; a registration it held ends with it (SEC-1: its tokens reach
     * nothing afterwards).
     *
     * @param m the MR
     */
    public void closed(ModelMr m) {
        if (m.grant != null) {
            end(m, "SEC-1", "ended by NdkCloseMr");
        }
        m.phase = MrPhase.CLOSED;
        mrs.remove(m.id());
    }

    /**
     * An allowed refusal left the MR's registration unknown: no call picks it again and no access through it is
     * judged (it is neither live nor ended); only a close ends it.
     *
     * @param m the MR
     */
    public void unsettle(ModelMr m) {
        m.grant = null;
        m.phase = MrPhase.UNSETTLED;
    }

    private void end(ModelMr m, String rule, String why) {
        if (m.grant != null) {
            revoked.add(new Revoked(m.grant, rule, why));
        }
        m.grant = null;
    }

    /**
     * MR-TOK-6: a new remote token differs from every other live registration's of the model. The model's MRs are of
     * one PD, and a token is scoped by the PD of the QP it is used through, so this is uniqueness within that PD; a
     * {@link #foreign} token must be of the same PD too.
     */
    private void requireUnique(ModelMr owner, int token, String call) {
        for (ModelMr m : mrs.values()) {
            if (m != owner && m.grant != null && m.grant.remoteToken() == token) {
                throw Violations.of("MR-TOK-6", call + " for " + owner, "a remote token no other live registration has",
                        u32(token) + ", also the token of " + m + " (" + m.grant.what() + ")");
            }
        }
        String f = foreignTokens.get(token);
        if (f != null) {
            throw Violations.of("MR-TOK-6", call + " for " + owner, "a remote token no other live registration has",
                    u32(token) + ", also the token of " + f);
        }
    }

    /**
     * @param eligible the objects a step may act on now
     * @param pick     the step's choice (any non-negative int)
     * @param <T>      their type
     * @return the chosen one
     * @throws IllegalStateException when none is eligible: a step's precondition must have said so
     */
    public static <T> T pick(List<T> eligible, int pick) {
        if (eligible.isEmpty()) {
            throw new IllegalStateException("a step ran although its precondition found nothing to act on");
        }
        return eligible.get(Math.floorMod(pick, eligible.size()));
    }
}
