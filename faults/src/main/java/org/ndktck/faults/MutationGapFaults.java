package org.ndktck.faults;

import static org.ndktck.spec.NtStatus.STATUS_INVALID_PARAMETER;
import static org.ndktck.spec.NtStatus.STATUS_SUCCESS;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import org.ndktck.reference.Access;
import org.ndktck.reference.FastRegisterRequest;
import org.ndktck.reference.FrAccessFlags;
import org.ndktck.reference.MrAccessFlags;
import org.ndktck.reference.Pieces;
import org.ndktck.reference.ReferenceProvider;
import org.ndktck.reference.RegisterMrRequest;
import org.ndktck.spec.NdkMrFlags;
import org.ndktck.spec.NdkOpFlags;
import org.ndktck.spec.NdkProvider;
import org.ndktck.spec.NdkProviderSource;
import org.ndktck.spec.NtStatus;

/**
 * Faults taken from the mutants of the reference provider that survived the PIT run (BENCHMARKS.md, section
 * on mutation testing): each is one surviving mutant of {@code StandardChecks} that breaks a provider-checked
 * rule, written as a named fault so the kit keeps catching it. Each replaces one piece of the reference model
 * ({@link Pieces}); the name is {@code fault:RULE-ID/variant} after the rule the kit must FAIL.
 *
 * <ul>
 *   <li>{@code fault:MR-FR-3/rejects-boundary}: Length compared with {@code <} instead of {@code <=} against
 *       AdapterPageCount × PAGE_SIZE − FBO, so a request that fills its pages exactly is rejected
 *       (STATUS_INVALID_PARAMETER inline).</li>
 *   <li>{@code fault:MR-FR-19/needs-local-write}: NdkFastRegister rejects every request without
 *       NDK_OP_FLAG_ALLOW_LOCAL_WRITE (0x08), as if the bit test of 0x20 were always true.</li>
 *   <li>{@code fault:MR-REG-14/needs-local-write}: NdkRegisterMr rejects every request without
 *       NDK_MR_FLAG_ALLOW_LOCAL_WRITE (0x1), so the valid flags 0x0, 0x2 and 0x8 fail.</li>
 *   <li>{@code fault:MR-FR-12/remote-read-always}: a fast registration always grants remote read, whatever its
 *       flags.</li>
 *   <li>{@code fault:MR-REG-8/local-write-always}: a registration always grants local write (Receive target,
 *       Read sink), whatever its flags.</li>
 * </ul>
 */
public final class MutationGapFaults implements NdkProviderSource {

    private static ReferenceProvider.Builder fault(String name, String description) {
        return ReferenceProvider.builder().name(name).description(description);
    }

    private static NtStatus failUnless(boolean ok) {
        return ok ? STATUS_SUCCESS : STATUS_INVALID_PARAMETER;
    }

    @Override
    public Collection<NdkProvider> providers() {
        List<NdkProvider> out = new ArrayList<>();
        out.add(fault("fault:MR-FR-3/rejects-boundary",
                "NdkFastRegister compares Length < AdapterPageCount x PAGE_SIZE - FBO, rejecting a Length that fills the pages exactly")
                .replace(Pieces.MR_FR_3, (FastRegisterRequest r) -> {
                    long capacity = r.pageCount() * r.adapter().pageSize();
                    long fbo = r.unsignedFbo();
                    return failUnless(fbo <= capacity && Long.compareUnsigned(r.length(), capacity - fbo) < 0);
                }).build());
        out.add(fault("fault:MR-FR-19/needs-local-write",
                "NdkFastRegister rejects every request without NDK_OP_FLAG_ALLOW_LOCAL_WRITE (0x08)")
                .replace(Pieces.MR_FR_19, (FastRegisterRequest r) -> failUnless((r.flags() & NdkOpFlags.ALLOW_LOCAL_WRITE) != 0))
                .build());
        out.add(fault("fault:MR-REG-14/needs-local-write",
                "NdkRegisterMr rejects every request without NDK_MR_FLAG_ALLOW_LOCAL_WRITE (0x1)")
                .replace(Pieces.MR_REG_14, (RegisterMrRequest r) -> {
                    NtStatus standard = Pieces.MR_REG_14.standard().check(r);
                    return standard.isSuccess() ? failUnless((r.flags() & NdkMrFlags.ALLOW_LOCAL_WRITE) != 0) : standard;
                }).build());
        out.add(fault("fault:MR-FR-12/remote-read-always",
                "a fast registration grants remote read whatever its NDK_OP_FLAG bits")
                .replace(Pieces.FR_ACCESS_FLAGS, (FrAccessFlags) f -> Pieces.FR_ACCESS_FLAGS.standard().access(f) | Access.REMOTE_READ)
                .build());
        out.add(fault("fault:MR-REG-8/local-write-always",
                "a registration made with NdkRegisterMr grants local write whatever its NDK_MR_FLAG bits")
                .replace(Pieces.MR_ACCESS_FLAGS, (MrAccessFlags) f -> Pieces.MR_ACCESS_FLAGS.standard().access(f) | Access.LOCAL_WRITE)
                .build());
        return out;
    }
}
