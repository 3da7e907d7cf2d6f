package org.ndktck.tck.harness;

import org.ndktck.spec.Mdl;
import org.ndktck.spec.NdkMr;
import org.ndktck.spec.NdkMrFlags;
import org.ndktck.spec.NdkObject;
import org.ndktck.spec.NdkObjectType;
import org.ndktck.spec.NdkPd;
import org.ndktck.spec.NtStatus;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;

import static org.ndktck.tck.harness.Hex.u32;
import static org.ndktck.tck.harness.Hex.u64;

/**
 * The try's MRs and the calls on them: NdkCreateMr (MR-CREATE-2, OBJ-1), NdkRegisterMr (MR-REG-9 table,
 * MR-REG-10 for a valid request, MR-REG-7), NdkDeregisterMr (MR-DEREG-2), NdkInitializeFastRegisterMr
 * (MR-FRI-8, MR-FRI-2), the tokens, NdkCloseMr, awaited or only started. The session keeps each MR's
 * registration state, so the tear-down deregisters what is still registered and closes every MR it created.
 */
public final class MrRequests {
    /** The register table of NdkRegisterMr (MR-REG-9), for messages. */
    static final String REGISTER_TABLE = "STATUS_SUCCESS, STATUS_PENDING, STATUS_INVALID_PARAMETER, STATUS_INSUFFICIENT_RESOURCES or another error code";

    private static final class MrState {
        final NdkMr mr;
        volatile boolean registered;
        volatile boolean closed;

        MrState(NdkMr mr) {
            this.mr = mr;
        }
    }

    private final Invoker inv;
    private final AsyncCalls calls;
    private final AdapterObjects objects;
    private final ConcurrentLinkedQueue<MrState> mrs = new ConcurrentLinkedQueue<>();
    /** The state of each MR of {@link #mrs} by the MR object's identity (the first, should a provider hand one out twice). */
    private final java.util.Map<NdkMr, MrState> byMr = java.util.Collections.synchronizedMap(new java.util.IdentityHashMap<>());

    MrRequests(Invoker inv, AsyncCalls calls, AdapterObjects objects) {
        this.inv = inv;
        this.calls = calls;
        this.objects = objects;
    }

    // ------------------------------------------------------------------ creates

    /**
     * NdkCreateMr on a side's PD, with the completion rules of {@link AsyncCalls#create}; the MR-CREATE-2 table
     * is the caller's to judge. The session closes the MR.
     *
     * @param side         target or peer
     * @param fastRegister true for a fast-register MR
     * @return the outcome
     */
    public Created<NdkMr> createMrRaw(Side side, boolean fastRegister) {
        NdkPd pd = side.pd;
        Created<NdkMr> c = calls.create("NdkCreateMr", () -> "NdkCreateMr(FastRegister=" + (fastRegister ? "TRUE" : "FALSE") + ") on the " + side.name + " PD",
                op -> pd.createMr(fastRegister, op.createCompletion(), op.context()));
        if (c.object() != null) {
            MrState st = new MrState(c.object());
            mrs.add(st);
            byMr.putIfAbsent(c.object(), st);
        }
        return c;
    }

    /**
     * NdkCreateMr that must succeed (MR-CREATE-2: on a fresh PD it ends in success, inline or through
     * its completion) and whose header must say NdkObjectTypeMr (OBJ-1). STATUS_INSUFFICIENT_RESOURCES
     * rejects the try (GEN-CB-5 allows it).
     *
     * @param side         target or peer
     * @param fastRegister true for a fast-register MR
     * @return the MR
     */
    public NdkMr createMr(Side side, boolean fastRegister) {
        Created<NdkMr> c = Refusals.retried(() -> createMrRaw(side, fastRegister), Created::status);
        Refusals.discardIfRefused(c.status());
        if (!c.succeeded()) {
            throw Violations.of("MR-CREATE-2", c.call(), "STATUS_SUCCESS, inline or through the completion, for an MR on a fresh PD", c.describe());
        }
        checkMrHeader(c::call, c.object());
        return c.object();
    }

    /**
     * Reads an MR's header and checks ObjectType = NdkObjectTypeMr (OBJ-1).
     *
     * @param call the create call, for the message (built only when a message is)
     * @param mr   the MR
     */
    public void checkMrHeader(Supplier<String> call, NdkMr mr) {
        var h = inv.call("NDK_OBJECT_HEADER", () -> "NDK_MR.Header of the MR from " + call.get(), mr::header);
        if (h == null || h.objectType() != NdkObjectType.MR) {
            throw Violations.of("OBJ-1", call.get(), "Header.ObjectType = NdkObjectTypeMr (4)",
                    h == null ? "no header (null)" : "Header.ObjectType = " + h.objectType());
        }
    }

    private MrState state(NdkMr mr) {
        return mr == null ? null : byMr.get(mr);
    }

    // ------------------------------------------------------------------ requests, awaited

    /**
     * NdkRegisterMr, awaited to its end; the result must be in the MR-REG-9 table (SUCCESS, PENDING, or an
     * error code; the completion SUCCESS or an error). The kit stays within the adapter's MaxRegistrationSize
     * (NDK_ADAPTER_INFO, an unsigned SIZE_T): a request whose Length lies past it but within the chain's bytes is not
     * made, and the try is discarded ({@link Refusals#beyondLimit}; a property all of whose tries end so is UNTESTED
     * with the limit and the setting that reaches it). Only a property about that limit makes such a request, through
     * {@link #registerPastLimit}. A Length past the chain's bytes (MR-REG-13) is made whatever the limit.
     *
     * @param mr     a normal (not fast-register) MR
     * @param mdl    the first MDL of the chain
     * @param length Length in bytes (SIZE_T, unsigned)
     * @param flags  NDK_MR_FLAG_* bits
     * @return the outcome
     */
    public Outcome register(NdkMr mr, Mdl mdl, long length, int flags) {
        withinMaxRegistrationSize(mdl, length);
        return registerPastLimit(mr, mdl, length, flags);
    }

    /**
     * Discards the try ({@link Refusals#beyondLimit}) when a registration of {@code length} bytes over {@code mdl}
     * lies past the adapter's MaxRegistrationSize and within the chain's bytes; returns otherwise.
     *
     * @param mdl    the chain (null: nothing to compare)
     * @param length Length in bytes (SIZE_T, unsigned)
     */
    public void withinMaxRegistrationSize(Mdl mdl, long length) {
        long max = objects.info().maxRegistrationSize();
        if (Long.compareUnsigned(length, max) > 0 && mdl != null && Long.compareUnsigned(length, mdl.chainByteCount()) <= 0) {
            Refusals.beyondLimit(pastMaxRegistrationSize(length, max));
        }
    }

    /**
     * @param length a Length past MaxRegistrationSize (unsigned)
     * @param max    MaxRegistrationSize (unsigned)
     * @return why the kit did not make the registration, and the setting that reaches the check
     */
    static String pastMaxRegistrationSize(long length, long max) {
        return "an NdkRegisterMr of Length " + u64(length) + " bytes lies past MaxRegistrationSize " + u64(max)
                + " (an adapter with a larger MaxRegistrationSize reaches the check; the reference provider: --set maxRegistrationSize=65536)";
    }

    /**
     * NdkRegisterMr as {@link #register}, made even when Length lies past MaxRegistrationSize: for the properties
     * about that limit (MR-REG-10, COV-1), where the pages' allowed outcomes judge the result.
     *
     * @param mr     a normal (not fast-register) MR
     * @param mdl    the first MDL of the chain
     * @param length Length in bytes (SIZE_T, unsigned)
     * @param flags  NDK_MR_FLAG_* bits
     * @return the outcome
     */
    public Outcome registerPastLimit(NdkMr mr, Mdl mdl, long length, int flags) {
        Supplier<String> d = () -> "NdkRegisterMr(Mdl=" + mdl + ", Length=" + u64(length) + ", Flags=" + Hex.mrFlags(flags) + ")";
        AsyncOp<NdkMr> op = calls.newOp(AsyncOp.Flavor.REQUEST, "NdkRegisterMr", d);
        NtStatus r = inv.call("NdkRegisterMr", d, () -> mr.register(mdl, length, flags, op.requestCompletion(), op.context()));
        Outcome o = calls.finish(op, r, "MR-REG-9", REGISTER_TABLE);
        if (o.succeeded()) {
            MrState s = state(mr);
            if (s != null) {
                s.registered = true;
            }
        }
        return o;
    }

    /**
     * NdkRegisterMr of a request the kit built to be valid: it must succeed (MR-REG-10: registrations up
     * to MaxRegistrationSize work, resources permitting). STATUS_INSUFFICIENT_RESOURCES rejects the try.
     *
     * @param mr     a normal MR
     * @param mdl    the chain
     * @param length Length (unsigned)
     * @param flags  NDK_MR_FLAG_* bits
     */
    public void registerValid(NdkMr mr, Mdl mdl, long length, int flags) {
        Outcome o = Refusals.retried(() -> register(mr, mdl, length, flags), Outcome::status);
        Refusals.discardIfRefused(o.status());
        if (!o.succeeded()) {
            if ((flags & NdkMrFlags.RDMA_READ_SINK) != 0 && objects.readSinkNotRequired()) {
                Outcome without = register(mr, mdl, length, flags & ~NdkMrFlags.RDMA_READ_SINK);
                if (without.succeeded()) {
                    throw Violations.of("MR-REG-7", o.call(), "STATUS_SUCCESS: NDK_MR_FLAG_RDMA_READ_SINK never makes a registration fail on an "
                            + "adapter with RDMA_READ_SINK_NOT_REQUIRED", o.describe() + ", while the same request without it succeeded");
                }
            }
            throw Violations.of("MR-REG-10", o.call(), "STATUS_SUCCESS for a valid registration within MaxRegistrationSize ("
                    + u64(objects.info().maxRegistrationSize()) + ")", o.describe());
        }
    }

    /**
     * NdkDeregisterMr, awaited (MR-DEREG-2 table: SUCCESS, PENDING or an error).
     *
     * @param mr a registered MR
     * @return the outcome
     */
    public Outcome deregister(NdkMr mr) {
        Supplier<String> d = () -> "NdkDeregisterMr()";
        AsyncOp<NdkMr> op = calls.newOp(AsyncOp.Flavor.REQUEST, "NdkDeregisterMr", d);
        NtStatus r = inv.call("NdkDeregisterMr", d, () -> mr.deregister(op.requestCompletion(), op.context()));
        Outcome o = calls.finish(op, r, "MR-DEREG-2", "STATUS_SUCCESS, STATUS_PENDING or an error code");
        MrState s = state(mr);
        if (s != null && o.succeeded()) {
            s.registered = false;
        }
        return o;
    }

    /**
     * NdkInitializeFastRegisterMr, awaited (MR-FRI-8 table: SUCCESS, PENDING, STATUS_IMPLEMENTATION_LIMIT
     * or another error).
     *
     * @param mr               a fast-register MR
     * @param adapterPageCount the most pages (ULONG, unsigned)
     * @param remoteAccess     whether later fast registrations may grant remote access
     * @return the outcome
     */
    public Outcome initializeFastRegister(NdkMr mr, int adapterPageCount, boolean remoteAccess) {
        Supplier<String> d = () -> "NdkInitializeFastRegisterMr(AdapterPageCount=" + u32(adapterPageCount) + ", RemoteAccess="
                + (remoteAccess ? "TRUE" : "FALSE") + ")";
        AsyncOp<NdkMr> op = calls.newOp(AsyncOp.Flavor.REQUEST, "NdkInitializeFastRegisterMr", d);
        NtStatus r = inv.call("NdkInitializeFastRegisterMr", d, () -> mr.initializeFastRegister(adapterPageCount, remoteAccess,
                op.requestCompletion(), op.context()));
        return calls.finish(op, r, "MR-FRI-8", "STATUS_SUCCESS, STATUS_PENDING, STATUS_IMPLEMENTATION_LIMIT or another error code");
    }

    /**
     * Creates a fast-register MR on the target PD and initializes it; both must succeed (MR-CREATE-2,
     * MR-FRI-2 for counts up to FRMRPageCount). STATUS_INSUFFICIENT_RESOURCES rejects the try.
     *
     * @param adapterPageCount pages (≤ FRMRPageCount)
     * @param remoteAccess     RemoteAccess
     * @return the MR
     */
    public NdkMr fastRegisterMr(int adapterPageCount, boolean remoteAccess) {
        NdkMr mr = createMr(objects.target(), true);
        Outcome o = Refusals.retried(() -> initializeFastRegister(mr, adapterPageCount, remoteAccess), Outcome::status);
        Refusals.discardIfRefused(o.status());
        if (!o.succeeded()) {
            throw Violations.of("MR-FRI-2", o.call(), "STATUS_SUCCESS: AdapterPageCount is at most FRMRPageCount ("
                    + u32(objects.info().frmrPageCount()) + ")", o.describe());
        }
        return mr;
    }

    /** @param mr an MR @return NdkGetRemoteTokenFromMr */
    public int remoteToken(NdkMr mr) {
        return inv.call("NdkGetRemoteTokenFromMr", () -> "NdkGetRemoteTokenFromMr()", mr::getRemoteToken);
    }

    /** @param mr an MR @return NdkGetLocalTokenFromMr */
    public int localToken(NdkMr mr) {
        return inv.call("NdkGetLocalTokenFromMr", () -> "NdkGetLocalTokenFromMr()", mr::getLocalToken);
    }

    /**
     * NdkCloseMr, awaited (CL-2: SUCCESS or PENDING; CL-1 for the completion).
     *
     * @param mr the MR
     */
    public void closeMr(NdkMr mr) {
        MrState s = state(mr);
        if (s != null) {
            s.closed = true;
        }
        objects.closeObject("NdkCloseMr", () -> "NdkCloseMr()", op -> mr.close(op.closeCompletion(), op.context()));
    }

    // ------------------------------------------------------------------ requests, started only

    /**
     * NdkCloseMr from inside a completion callback (GEN-LIFE-1); the close's own completion is checked
     * when the session closes.
     *
     * @param mr the MR
     * @return the status the close returned
     */
    public NtStatus closeMrFromCallback(NdkMr mr) {
        MrState s = state(mr);
        if (s != null) {
            s.closed = true;
        }
        Supplier<String> d = () -> "NdkCloseMr() from inside a completion callback";
        AsyncOp<NdkMr> op = calls.newOp(AsyncOp.Flavor.CLOSE, "NdkCloseMr", d);
        NtStatus r = inv.call("NdkCloseMr", d, () -> mr.close(op.closeCompletion(), op.context()));
        op.returned(r);
        // a close may fail inline (CL-2): made again; still refused, the MR stays open for the session to close
        for (int i = 1; i < Refusals.SETUP_ATTEMPTS && CloseRefusals.refused(r); i++) {
            AsyncOp<NdkMr> again = calls.newOp(AsyncOp.Flavor.CLOSE, "NdkCloseMr", d);
            r = inv.call("NdkCloseMr", d, () -> mr.close(again.closeCompletion(), again.context()));
            again.returned(r);
        }
        if (CloseRefusals.refused(r) && s != null) {
            s.closed = false;
        }
        return r;
    }

    /**
     * NdkDeregisterMr from inside a completion callback (GEN-LIFE-1), not awaited.
     *
     * @param mr the MR
     * @return the status it returned
     */
    public NtStatus deregisterFromCallback(NdkMr mr) {
        Supplier<String> d = () -> "NdkDeregisterMr() from inside a completion callback";
        AsyncOp<NdkMr> op = calls.newOp(AsyncOp.Flavor.REQUEST, "NdkDeregisterMr", d);
        NtStatus r = inv.call("NdkDeregisterMr", d, () -> mr.deregister(op.requestCompletion(), op.context()));
        op.returned(r);
        MrState s = state(mr);
        if (s != null) {
            s.registered = false;
        }
        return r;
    }

    /**
     * Starts NdkRegisterMr and returns at once (not awaited): the op has its returned status. As {@link #register}, a
     * Length past MaxRegistrationSize within the chain discards the try instead.
     *
     * @param mr     a normal MR
     * @param mdl    the chain
     * @param length Length (unsigned)
     * @param flags  NDK_MR_FLAG_* bits
     * @param inside kit code to run inside the request's completion callback (on the provider's thread), or null
     * @return the op; finish it with {@link #finish}
     */
    public AsyncOp<NdkMr> startRegister(NdkMr mr, Mdl mdl, long length, int flags, Consumer<AsyncOp<NdkMr>> inside) {
        withinMaxRegistrationSize(mdl, length);
        Supplier<String> d = () -> "NdkRegisterMr(Mdl=" + mdl + ", Length=" + u64(length) + ", Flags=" + Hex.mrFlags(flags) + ")";
        AsyncOp<NdkMr> op = calls.newOp(AsyncOp.Flavor.REQUEST, "NdkRegisterMr", d);
        if (inside != null) {
            op.runInsideCallback(inside);
        }
        NtStatus r = inv.call("NdkRegisterMr", d, () -> mr.register(mdl, length, flags, op.requestCompletion(), op.context()));
        op.returned(r == null ? NtStatus.of(-1) : r);
        return op;
    }

    /**
     * Starts NdkDeregisterMr and returns at once (not awaited): the op has its returned status.
     *
     * @param mr a registered normal MR
     * @return the op; finish it with {@link #finish}
     */
    public AsyncOp<NdkMr> startDeregister(NdkMr mr) {
        Supplier<String> d = () -> "NdkDeregisterMr()";
        AsyncOp<NdkMr> op = calls.newOp(AsyncOp.Flavor.REQUEST, "NdkDeregisterMr", d);
        NtStatus r = inv.call("NdkDeregisterMr", d, () -> mr.deregister(op.requestCompletion(), op.context()));
        op.returned(r == null ? NtStatus.of(-1) : r);
        return op;
    }

    /**
     * Starts NdkInitializeFastRegisterMr and returns at once.
     *
     * @param inside kit code to run inside the completion callback (on the provider's thread), or null
     * @return the op; finish it with {@link #finish}
     */
    public AsyncOp<NdkMr> startInitialize(NdkMr mr, int adapterPageCount, boolean remoteAccess, Consumer<AsyncOp<NdkMr>> inside) {
        Supplier<String> d = () -> "NdkInitializeFastRegisterMr(AdapterPageCount=" + u32(adapterPageCount) + ", RemoteAccess="
                + (remoteAccess ? "TRUE" : "FALSE") + ")";
        AsyncOp<NdkMr> op = calls.newOp(AsyncOp.Flavor.REQUEST, "NdkInitializeFastRegisterMr", d);
        if (inside != null) {
            op.runInsideCallback(inside);
        }
        NtStatus r = inv.call("NdkInitializeFastRegisterMr", d, () -> mr.initializeFastRegister(adapterPageCount, remoteAccess,
                op.requestCompletion(), op.context()));
        op.returned(r == null ? NtStatus.of(-1) : r);
        return op;
    }

    /**
     * Awaits a started request to its end (a completion after STATUS_PENDING) and checks its status table.
     *
     * @param op        a started op
     * @param tableRule the status-table rule of the call (MR-REG-9, MR-FRI-8, ...)
     * @param allowed   the table, for messages
     * @return the outcome
     */
    public Outcome finish(AsyncOp<?> op, String tableRule, String allowed) {
        return calls.finish(op, op.returnedStatus(), tableRule, allowed);
    }

    // ------------------------------------------------------------------ tear-down

    /**
     * Tear-down, first step: deregisters each MR still registered (again after a refusal for lack of resources,
     * MR-DEREG-2 "other status codes"), closes every MR the session created, and closes the MRs the provider
     * handed over irregularly ({@link AsyncCalls#orphans()}).
     *
     * @param problems where failures go
     * @param hung     true once a call of this try hung (the rest is then left)
     * @return false when a hang stopped the tear-down
     */
    boolean closeAll(List<Throwable> problems, BooleanSupplier hung) {
        for (MrState s : mrs) {
            if (s.closed) {
                continue;
            }
            try {
                if (s.registered) {
                    for (int i = 0; i < Refusals.SETUP_ATTEMPTS && s.registered; i++) {
                        if (!Refusals.isAllowedRefusal(deregister(s.mr).status())) {
                            break;
                        }
                    }
                }
                closeMr(s.mr);
            } catch (RuntimeException | Error e) {
                problems.add(e);
                if (hung.getAsBoolean()) {
                    return false;
                }
            }
        }
        Set<NdkObject> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        for (NdkObject o : calls.orphans()) {
            if (!seen.add(o)) {
                continue;
            }
            try {
                if (o instanceof NdkMr m && state(m) == null) {
                    objects.closeObject("NdkCloseMr", () -> "NdkCloseMr() of an MR the provider handed over irregularly",
                            op -> m.close(op.closeCompletion(), op.context()));
                }
            } catch (RuntimeException | Error e) {
                problems.add(e);
            }
        }
        return true;
    }
}
