package org.ndktck.tck.harness;

import org.ndktck.spec.Mdl;
import org.ndktck.spec.NdkLogicalAddressMapping;
import org.ndktck.spec.NdkMr;
import org.ndktck.spec.NtStatus;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import static org.ndktck.tck.harness.Hex.u32;
import static org.ndktck.tck.harness.Hex.u64;

/**
 * Logical address mappings: NdkBuildLam (LAM-7 table; LAM-4 for the mappings the kit builds for its own use,
 * such as a fast registration's page array, MR-FR-2) and NdkReleaseLam. The session releases every mapping it
 * built when the try ends; a property may build and release its own ({@link OwnedObjects}).
 */
public final class Lams {
    private static final String TABLE = "STATUS_SUCCESS, STATUS_PENDING, STATUS_BUFFER_TOO_SMALL, STATUS_INVALID_PARAMETER, "
            + "STATUS_INSUFFICIENT_RESOURCES or another error code";

    private final Invoker inv;
    private final AsyncCalls calls;
    private final AdapterObjects objects;
    private final int pageSize;
    private final List<NdkLogicalAddressMapping> lams = new ArrayList<>();

    Lams(Invoker inv, AsyncCalls calls, AdapterObjects objects, int pageSize) {
        this.inv = inv;
        this.calls = calls;
        this.objects = objects;
        this.pageSize = pageSize;
    }

    /**
     * NdkBuildLam over a chain for the kit's own use (the page array of a fast registration, MR-FR-2),
     * sized exactly, with one retry on STATUS_BUFFER_TOO_SMALL; awaited. The mapping must have one
     * PAGE_SIZE-aligned entry per page spanned and FBO = the chain's offset in its first page (LAM-4).
     *
     * @param mdl    the chain
     * @param length bytes to map (unsigned)
     * @return the mapping; released when the session closes
     */
    public Lam buildLam(Mdl mdl, long length) {
        long span = Mdl.spanPages(mdl.byteOffset(), length, pageSize);
        NdkLogicalAddressMapping lam = new NdkLogicalAddressMapping((int) NdkLogicalAddressMapping.bytesFor(span));
        Outcome o = build(mdl, length, lam);
        if (NtStatus.STATUS_BUFFER_TOO_SMALL.equals(o.status())) {
            lam = new NdkLogicalAddressMapping(lam.lamSize());
            o = build(mdl, length, lam);
        }
        // a set-up mapping refused for lack of resources is built again (Refusals.SETUP_ATTEMPTS)
        for (int i = 1; i < Refusals.SETUP_ATTEMPTS && Refusals.isAllowedRefusal(o.status()); i++) {
            lam = new NdkLogicalAddressMapping(lam.lamSize());
            o = build(mdl, length, lam);
        }
        Refusals.discardIfRefused(o.status());
        if (!o.succeeded()) {
            throw new KitSetupError(o.call(), o.describe());
        }
        keep(lam);
        long[] pages = lam.adapterPageArray();
        long count = Integer.toUnsignedLong(lam.adapterPageCount());
        String problem = null;
        if (count != span || pages == null || pages.length < count) {
            problem = "AdapterPageCount " + count + " for " + span + " pages spanned";
        } else if (lam.fbo() != mdl.byteOffset()) {
            problem = "*pFBO " + u32(lam.fbo()) + " for a chain starting at offset " + u32(mdl.byteOffset());
        } else {
            for (int i = 0; i < count; i++) {
                if ((pages[i] & (pageSize - 1)) != 0) {
                    problem = "AdapterPageArray[" + i + "] = " + u64(pages[i]) + " is not PAGE_SIZE-aligned";
                    break;
                }
            }
        }
        if (problem != null) {
            throw Violations.of("LAM-4", o.call(), "one PAGE_SIZE-aligned entry per page and *pFBO = the offset in the first page", problem);
        }
        return new Lam(lam, lam.fbo(), (int) count, pages);
    }

    /**
     * NdkBuildLam with a buffer of {@code lamSizeBytes} bytes (0: none), awaited; for the kit's general
     * properties (STATUS_BUFFER_TOO_SMALL is an inline or completion result like any other). The mapping is
     * released at close when it succeeded.
     *
     * @param mdl          the chain
     * @param length       bytes (unsigned)
     * @param lamSizeBytes {@code *pLAMSize} offered (ULONG)
     * @return the outcome
     */
    public Outcome buildLamRaw(Mdl mdl, long length, int lamSizeBytes) {
        NdkLogicalAddressMapping lam = new NdkLogicalAddressMapping(lamSizeBytes);
        Outcome o = build(mdl, length, lam);
        if (o.succeeded()) {
            keep(lam);
        }
        return o;
    }

    /**
     * NdkBuildLam into {@code lam}, awaited, without requiring success; the LAM-7 status table is checked. The
     * session does not keep the mapping: the caller releases it ({@link #release}).
     *
     * @param mdl    the chain
     * @param length bytes to map (unsigned)
     * @param lam    the mapping, with the buffer size offered
     * @return the outcome
     */
    public Outcome build(Mdl mdl, long length, NdkLogicalAddressMapping lam) {
        int offered = lam.lamSize();
        Supplier<String> d = () -> "NdkBuildLam(Mdl=" + mdl + ", Length=" + u64(length) + ", *pLAMSize=" + u32(offered) + ")";
        AsyncOp<NdkMr> op = calls.newOp(AsyncOp.Flavor.REQUEST, "NdkBuildLam", d);
        NtStatus r = inv.call("NdkBuildLam", d, () -> objects.adapter().buildLam(mdl, length, op.requestCompletion(), op.context(), lam));
        return calls.finish(op, r, "LAM-7", TABLE);
    }

    /**
     * NdkReleaseLam of a mapping.
     *
     * @param lam the mapping
     */
    public void release(NdkLogicalAddressMapping lam) {
        // the session's tear-down must not release it a second time (LAM-REL-3 binds the kit)
        synchronized (lams) {
            lams.remove(lam);
        }
        inv.run("NdkReleaseLam", () -> "NdkReleaseLam()", () -> objects.adapter().releaseLam(lam));
    }

    private void keep(NdkLogicalAddressMapping lam) {
        synchronized (lams) {
            lams.add(lam);
        }
    }

    /**
     * Tear-down: releases every mapping the session built.
     *
     * @param problems where failures go
     */
    void releaseAll(List<Throwable> problems) {
        List<NdkLogicalAddressMapping> toRelease;
        synchronized (lams) {
            toRelease = new ArrayList<>(lams);
        }
        for (NdkLogicalAddressMapping lam : toRelease) {
            try {
                release(lam);
            } catch (RuntimeException | Error e) {
                problems.add(e);
            }
        }
    }
}
