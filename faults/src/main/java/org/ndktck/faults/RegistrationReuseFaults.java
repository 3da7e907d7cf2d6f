package org.ndktck.faults;

import java.util.Collection;
import java.util.List;

import org.ndktck.spec.NdkMrFlags;
import org.ndktck.spec.NdkObject;
import org.ndktck.spec.NdkProvider;
import org.ndktck.spec.NdkProviderSource;
import org.ndktck.spec.NtStatus;
import org.ndktck.spec.RequestCompletion;

/**
 * Providers that differ from the reference when one normal MR is registered, deregistered and registered again
 * (NdkRegisterMr, NdkDeregisterMr, NdkGetRemoteTokenFromMr). The pages do not say whether an MR may be registered
 * again after its deregistration (MR-DEREG-4, AMB-13): a provider may refuse it, with any status, or accept it; once
 * it accepts, the new registration is bound by the NdkRegisterMr page like any other. Each is a {@link Hooks} over
 * the reference, kept per MR in {@link ForwardingObject#state}; every one works in every completion style.
 * <ul>
 *   <li>{@code fault:MR-REG-8/rereg-keeps-remote-rights}: a registration keeps the remote rights every earlier
 *       registration of the same MR had: NDK_MR_FLAG_ALLOW_REMOTE_READ (0x2) once granted stays granted, and the
 *       remote-write bit (0x4) too whenever the new Flags hold ALLOW_LOCAL_WRITE (0x1), so a peer reads or writes a
 *       re-registered region its Flags close to it. A driver that reuses the MR's hardware key entry and ORs the new
 *       access bits into it, instead of rewriting them, does this.</li>
 *   <li>{@code fault:MR-REG-4/rereg-remote-token-stale}: NdkGetRemoteTokenFromMr of a normal MR keeps giving the
 *       token of its first registration (the getter caches it in the MR object and refreshes it only when the cache
 *       is empty); the local token is right. After a re-registration the token the consumer hands its peer names
 *       the deregistered registration, so the peer's reads and writes inside the new region fail.</li>
 *   <li>{@code legal:reregistration-refused} (in {@link #legal()}): NdkRegisterMr of an MR that was registered
 *       before fails inline with STATUS_INVALID_DEVICE_STATE and changes nothing; the pages leave the call
 *       unspecified, so the kit must not FAIL it.</li>
 * </ul>
 * Before the MR life-cycle chain re-registered deregistered MRs (MrLifecycleStateProperties, MR-DEREG-4 in the
 * model's unspecified mode) the standard profile passed both faults.
 */
public final class RegistrationReuseFaults implements NdkProviderSource {

    /** What the hooks remember of one MR. */
    private static final class Memory {
        /** ALLOW_REMOTE_READ and the remote-write bit granted by any earlier registration. */
        int remoteBits;
        /** The remote token of the first registration, or null before it. */
        Integer firstRemoteToken;
        /** A registration of this MR succeeded once. */
        volatile boolean registeredOnce;
    }

    @Override
    public Collection<NdkProvider> providers() {
        return List.of(
                Variants.wrapped("fault:MR-REG-8/rereg-keeps-remote-rights", "a registration of an MR keeps the remote read and "
                        + "remote write rights its earlier registrations had (ORed into the new Flags)", KeepsRemoteRights::new),
                Variants.wrapped("fault:MR-REG-4/rereg-remote-token-stale", "NdkGetRemoteTokenFromMr of a normal MR keeps giving "
                        + "the token of its first registration, so after a re-registration the peer's accesses fail", StaleRemoteToken::new));
    }

    /**
     * @return the legal providers of this file: {@code legal:reregistration-refused}
     */
    public static List<NdkProvider> legal() {
        return List.of(Variants.wrapped("legal:reregistration-refused", "NdkRegisterMr of an MR that was registered before "
                + "fails inline with STATUS_INVALID_DEVICE_STATE (MR-DEREG-4: the pages leave re-registration unspecified)",
                ReregistrationRefused::new));
    }

    /** ORs the remote rights of the MR's earlier registrations into each new registration's Flags. */
    static final class KeepsRemoteRights implements Hooks {
        @Override
        public int registerFlags(ForwardingMr mr, int flags) {
            Memory m = mr.state(Memory::new);
            synchronized (m) {
                int kept = m.remoteBits & NdkMrFlags.ALLOW_REMOTE_READ;
                if ((flags & NdkMrFlags.ALLOW_LOCAL_WRITE) != 0) {
                    kept |= m.remoteBits & (NdkMrFlags.ALLOW_REMOTE_WRITE & ~NdkMrFlags.ALLOW_LOCAL_WRITE);
                }
                m.remoteBits |= flags & (NdkMrFlags.ALLOW_REMOTE_READ | (NdkMrFlags.ALLOW_REMOTE_WRITE & ~NdkMrFlags.ALLOW_LOCAL_WRITE));
                return flags | kept;
            }
        }
    }

    /** Caches a normal MR's first remote token. */
    static final class StaleRemoteToken implements Hooks {
        @Override
        public int token(NdkCall call, ForwardingMr mr, int token) {
            if (call != NdkCall.GET_REMOTE_TOKEN || mr.fastRegister()) {
                return token;
            }
            Memory m = mr.state(Memory::new);
            synchronized (m) {
                if (m.firstRemoteToken == null) {
                    m.firstRemoteToken = token;
                }
                return m.firstRemoteToken;
            }
        }
    }

    /** Refuses NdkRegisterMr of an MR whose registration once succeeded. */
    static final class ReregistrationRefused implements Hooks {
        @Override
        public NtStatus request(NdkCall call, NdkObject target, RequestCompletion completion, Object context, RequestCall inner) {
            if (call != NdkCall.REGISTER_MR || !(target instanceof ForwardingMr mr)) {
                return inner.invoke(completion, context);
            }
            Memory m = mr.state(Memory::new);
            if (m.registeredOnce) {
                return NtStatus.STATUS_INVALID_DEVICE_STATE;
            }
            return Hooks.mapStatus(inner, completion, context, st -> {
                if (NtStatus.STATUS_SUCCESS.equals(st)) {
                    m.registeredOnce = true;
                }
                return st;
            });
        }
    }
}
