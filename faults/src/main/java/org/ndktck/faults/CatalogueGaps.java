package org.ndktck.faults;

import static org.ndktck.spec.NtStatus.STATUS_INVALID_PARAMETER;
import static org.ndktck.spec.NtStatus.STATUS_SUCCESS;

import java.util.ArrayList;
import java.util.List;

import org.ndktck.reference.FastRegisterRequest;
import org.ndktck.reference.Pieces;
import org.ndktck.reference.RegisterMrRequest;
import org.ndktck.spec.Mdl;
import org.ndktck.spec.NdkProvider;
import org.ndktck.spec.NtStatus;

/**
 * Faults that complete the catalogue: one for each provider-checked MUST / MUST NOT rule that no
 * other fault source covers, and the length-arithmetic faults. Each replaces one or two
 * pieces of the reference model ({@link Pieces}) or wraps its objects ({@link Hooks}).
 *
 * <h2>Kind 12: lengths compared in 32 bits or as signed values</h2>
 * Length is a SIZE_T (unsigned 64-bit, carried in a Java long). Providers have shipped three wrong
 * comparisons, each letting some byte count past the limit through:
 * <ul>
 *   <li>{@code overflow32}: Length truncated to a ULONG before the comparison, so 2^32 + n passes where n
 *       would;</li>
 *   <li>{@code signed32}: Length truncated and compared as a signed LONG, so every Length whose low 32 bits
 *       are 2^31 or more (negative) passes, as does every truncation that passes {@code overflow32};</li>
 *   <li>{@code signed}: Length compared as a signed 64-bit value, so every Length of 2^63 or more passes.</li>
 * </ul>
 * For NdkFastRegister the limit is AdapterPageCount × PAGE_SIZE − FBO (MR-FR-3); the kit branch's
 * {@code SeedPageFaults} already has the first and the last there ({@code fault:MR-FR-3/length-32bit},
 * {@code fault:MR-FR-3/signed}), so this class adds {@code fault:MR-FR-3/signed32}. For NdkRegisterMr the
 * limit is the chain's total ByteCount (MR-REG-13) and, with the same arithmetic, MaxRegistrationSize
 * (MR-REG-10, which would otherwise stop the huge values first): {@code fault:MR-REG-13/overflow32} and
 * {@code fault:MR-REG-13/signed}.
 */
public final class CatalogueGaps {
    private CatalogueGaps() {
    }

    /** How a faulty provider compares an unsigned 64-bit Length with an unsigned limit. */
    enum LengthCompare {
        /** Length truncated to 32 bits, compared unsigned. */
        OVERFLOW32 {
            @Override
            boolean withinLimit(long length, long limit) {
                return Long.compareUnsigned(Integer.toUnsignedLong((int) length), limit) <= 0;
            }
        },
        /** Length truncated to 32 bits, compared as a signed int (the limit clamped to the int range). */
        SIGNED32 {
            @Override
            boolean withinLimit(long length, long limit) {
                long clamped = Long.compareUnsigned(limit, Integer.MAX_VALUE) > 0 ? Integer.MAX_VALUE : limit;
                return (int) length <= (int) clamped;
            }
        },
        /** Length compared as a signed 64-bit value (the limit clamped to the long range). */
        SIGNED {
            @Override
            boolean withinLimit(long length, long limit) {
                long clamped = limit < 0 ? Long.MAX_VALUE : limit;
                return length <= clamped;
            }
        };

        abstract boolean withinLimit(long length, long limit);
    }

    /** @return the providers */
    public static List<NdkProvider> providers() {
        List<NdkProvider> out = new ArrayList<>();
        out.add(frLength("signed32", LengthCompare.SIGNED32,
                "NdkFastRegister compares Length truncated to a signed 32-bit value, so Lengths of 2^31 and more pass"));
        out.add(regLength("overflow32", LengthCompare.OVERFLOW32,
                "NdkRegisterMr compares Length with the chain's ByteCount (and MaxRegistrationSize) after truncating it to 32 bits"));
        out.add(regLength("signed", LengthCompare.SIGNED,
                "NdkRegisterMr compares Length with the chain's ByteCount (and MaxRegistrationSize) as a signed 64-bit value"));
        out.add(Variants.wrapped("fault:MR-REG-3/va-as-page-frames",
                "NdkRegisterMr takes the region's page frames from the MDL virtual address (VA / PAGE_SIZE), not from the MDL",
                () -> new VaAsPageFrames(NdkCall.REGISTER_MR)));
        return out;
    }

    /**
     * Hands the wrapped provider a copy of the consumer's MDL chain whose page frames are the virtual address
     * divided by PAGE_SIZE: what a provider that dereferences MmGetMdlVirtualAddress instead of using the MDL's
     * PFN array does (MR-REG-3, LAM-5). Bytes then move to and from frames the consumer never handed over.
     */
    static final class VaAsPageFrames implements Hooks {
        /** The longest chain copied; a longer (or cyclic) chain is passed on as it is. */
        private static final int MAX_MDLS = 1 << 16;
        private final NdkCall call;

        VaAsPageFrames(NdkCall call) {
            this.call = call;
        }

        @Override
        public Mdl mdl(NdkCall c, Mdl first) {
            if (c != call || first == null) {
                return first;
            }
            List<Mdl> copies = new ArrayList<>();
            for (Mdl m = first; m != null; m = m.next()) {
                if (copies.size() == MAX_MDLS) {
                    return first;
                }
                int shift = Integer.numberOfTrailingZeros(m.pageSize());
                long[] pfns = new long[m.pfns().length];
                for (int i = 0; i < pfns.length; i++) {
                    pfns[i] = (m.startVa() >>> shift) + i;
                }
                copies.add(new Mdl(m.pageSize(), m.startVa(), m.byteOffset(), m.byteCount(), pfns));
            }
            for (int i = 0; i + 1 < copies.size(); i++) {
                copies.get(i).setNext(copies.get(i + 1));
            }
            return copies.isEmpty() ? first : copies.get(0);
        }
    }

    private static NtStatus fail(boolean ok) {
        return ok ? STATUS_SUCCESS : STATUS_INVALID_PARAMETER;
    }

    private static NdkProvider frLength(String variant, LengthCompare compare, String description) {
        return Variants.builder("fault:MR-FR-3/" + variant, description)
                .replace(Pieces.MR_FR_3, (FastRegisterRequest r) -> {
                    long capacity = r.pageCount() * r.adapter().pageSize();
                    long fbo = r.unsignedFbo();
                    return fail(fbo <= capacity && compare.withinLimit(r.length(), capacity - fbo));
                }).build();
    }

    private static NdkProvider regLength(String variant, LengthCompare compare, String description) {
        return Variants.builder("fault:MR-REG-13/" + variant, description)
                .replace(Pieces.MR_REG_13, (RegisterMrRequest r) -> fail(compare.withinLimit(r.length(), r.chain().totalByteCount())))
                .replace(Pieces.MR_REG_10, (RegisterMrRequest r) ->
                        fail(compare.withinLimit(r.length(), r.adapter().settings().maxRegistrationSize())))
                .build();
    }
}
