package org.ndktck.faults;

import java.util.List;
import java.util.function.Function;

import org.ndktck.reference.InvalidateRequest;
import org.ndktck.reference.MrState;
import org.ndktck.reference.Pieces;
import org.ndktck.reference.RuleCheck;
import org.ndktck.spec.NdkMrFlags;
import org.ndktck.spec.NdkOpFlags;
import org.ndktck.spec.NdkProvider;
import org.ndktck.spec.NdkVersion;
import org.ndktck.spec.NtStatus;

/**
 * Legal providers that take, everywhere, the reading of an ambiguity-register entry the reference does not take
 * (the recorded freedoms). The catalog accepts both readings of each; the kit must give none of these providers a FAIL, in
 * either completion mode. Listed, with their ambiguities, in {@code freedoms.yaml} of the spec module.
 * <ul>
 *   <li>{@code legal:read-bounds-inline} (AMB-7): an NdkRead that reaches past the end of the live remote
 *       registration its token names fails inline with STATUS_REMOTE_RESOURCES (the NdkRead table lists it as a
 *       return value); the reference reports it as the completion status;</li>
 *   <li>{@code legal:access-violation-completes} (AMB-11): an NdkFastRegister asking for remote access on an MR
 *       initialized without it returns STATUS_SUCCESS and completes, in post order, with one CQ entry of
 *       STATUS_ACCESS_VIOLATION (as hardware that checks the access rights can only report it); nothing is
 *       registered;</li>
 *   <li>{@code legal:invalidate-again-completes} (AMB-14): an NdkInvalidate of an MR whose fast registration was
 *       already invalidated is accepted and completes with an error CQ entry (STATUS_INVALID_PARAMETER), in post
 *       order; the reference fails it inline;</li>
 *   <li>{@code legal:zero-length-accepted} (AMB-21): NdkRegisterMr and NdkFastRegister with Length 0 succeed
 *       and register an empty region, through which no byte can be reached;</li>
 *   <li>{@code legal:undefined-flags-ignored} (AMB-23): NdkRegisterMr and NdkFastRegister ignore undefined flag
 *       bits instead of rejecting them: bits outside the defined ones are cleared, and so is half of a composite
 *       flag (0x4 without 0x1, 0x20 without 0x10), before the reference sees the request.</li>
 * </ul>
 */
public final class LegalReadings {
    private LegalReadings() {
    }

    /** @return the providers, each with its one-line description */
    public static List<NdkProvider> providers() {
        return List.of(
                Variants.builder("legal:read-bounds-inline", "NdkRead past the end of the remote registration fails inline with "
                        + "STATUS_REMOTE_RESOURCES (AMB-7: inline or as the completion status)")
                        .replace(Pieces.READ_BOUNDS_AT_POST, () -> true).build(),
                Variants.builder("legal:access-violation-completes", "NdkFastRegister with remote flags on an MR initialized "
                        + "without remote access returns STATUS_SUCCESS and completes with STATUS_ACCESS_VIOLATION (AMB-11)")
                        .replace(Pieces.LATE_FAILURE, Pieces.MR_FR_6.id()::equals).build(),
                Variants.builder("legal:invalidate-again-completes", "NdkInvalidate of an MR whose fast registration was already "
                        + "invalidated is accepted and completes with an error (AMB-14: inline or through the completion)")
                        .replace(Pieces.INV_1, (RuleCheck<InvalidateRequest>) LegalReadings::invalidatedMayBeInvalidatedAgain).build(),
                Variants.builder("legal:zero-length-accepted", "NdkRegisterMr and NdkFastRegister with Length 0 succeed and "
                        + "register an empty region (AMB-21: accepted, granting nothing, or rejected)")
                        .replace(Pieces.MR_REG_11, RuleCheck.pass()).replace(Pieces.MR_FR_14, RuleCheck.pass()).build(),
                Variants.wrapped("legal:undefined-flags-ignored", "NdkRegisterMr and NdkFastRegister ignore undefined flag bits "
                        + "and halves of composite flags instead of rejecting them (AMB-23)", UndefinedFlagsIgnored::new));
    }

    /**
     * INV-1 as the reference has it, except that an MR whose fast registration was invalidated passes the inline
     * check; the request then finds no live registration when processed and completes with an error.
     */
    static NtStatus invalidatedMayBeInvalidatedAgain(InvalidateRequest r) {
        MrState s = r.mr().state();
        return Variants.failUnless(r.mr().fastRegister() && r.mr().samePd()
                && (s == MrState.FAST_REGISTERED || s == MrState.INVALIDATED));
    }

    /** Clears undefined NDK_MR_FLAG and NDK_OP_FLAG bits, and halves of composite flags, before the reference sees them. */
    static final class UndefinedFlagsIgnored implements Hooks {
        private ForwardingAdapter adapter;
        private volatile Boolean v12;

        @Override
        public void attach(ForwardingAdapter a) {
            this.adapter = a;
        }

        /** @return the NDK_MR_FLAG bits a provider that ignores undefined bits acts on */
        static int mrFlags(int flags) {
            int f = flags & NdkMrFlags.DEFINED_BITS;
            return (f & NdkMrFlags.ALLOW_LOCAL_WRITE) == 0 ? f & ~0x4 : f;
        }

        /** @return the NDK_OP_FLAG bits of NdkFastRegister a provider that ignores undefined bits acts on */
        static int fastRegisterFlags(int flags, boolean v12) {
            int defined = NdkOpFlags.FAST_REGISTER_DEFINED_BITS & (v12 ? ~0 : ~NdkOpFlags.DEFER);
            int f = flags & defined;
            return (f & NdkOpFlags.ALLOW_LOCAL_WRITE) == 0 ? f & ~0x20 : f;
        }

        @Override
        public int registerFlags(ForwardingMr mr, int flags) {
            return mrFlags(flags);
        }

        @Override
        public NtStatus post(ForwardingQp qp, WorkRequest request, Function<WorkRequest, NtStatus> inner) {
            if (request.call() != NdkCall.FAST_REGISTER) {
                return inner.apply(request);
            }
            if (v12 == null) {
                v12 = adapter.inner().queryAdapterInfo().version().atLeast(NdkVersion.V1_2);
            }
            return inner.apply(request.withFlags(fastRegisterFlags(request.flags(), v12)));
        }
    }
}
