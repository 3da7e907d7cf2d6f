package org.ndktck.faults;

import java.util.List;

import org.ndktck.reference.Pieces;
import org.ndktck.reference.TokenPurpose;
import org.ndktck.spec.NdkProvider;

/**
 * A provider that is correct but slow, and one that is slow and wrong (the time budget,
 * {@code ./ndk-tck run --time-budget SECONDS}):
 * <ul>
 *   <li>{@code legal:slow-completion}: every asynchronous request and create (NdkCreatePd/Cq/Qp/Mr,
 *       NdkRegisterMr, NdkDeregisterMr, NdkInitializeFastRegisterMr, NdkBuildLam, ...) returns STATUS_PENDING and
 *       its completion comes {@value #DELAY_MILLIS} ms later, on the provider's delivery thread, one completion
 *       after the other, as a provider whose hardware answers slowly would (the pages set no time for a completion:
 *       FREE-TIME). At the standard profile the kit needs far more than ten minutes against it; with a time budget
 *       it must PASS within the budget, with fewer tries;</li>
 *   <li>{@code fault:MR-TOK-6/slow-completion-shared-token}: the same slowness, and every registration gets the same
 *       token 0x1234 (as {@code fault:MR-TOK-6/shared-token}), so two live MRs share a token. Before the time budget
 *       the kit gave no verdict on it within ten minutes; with {@code --time-budget 60} it FAILs MR-TOK-6 within the
 *       budget.</li>
 * </ul>
 */
public final class SlowProviders {
    /** How long each completion waits on the delivery thread, in milliseconds. */
    public static final long DELAY_MILLIS = 3;

    private SlowProviders() {
    }

    /** @return the slow legal provider */
    public static List<NdkProvider> legal() {
        return List.of(Variants.wrapped("legal:slow-completion",
                "every asynchronous request and create pends and completes " + DELAY_MILLIS
                        + " ms later on the provider's own thread (correct but slow: use --time-budget)",
                () -> new LegalBehaviours.Convert(LegalBehaviours.Style.FOREIGN_THREAD, DELAY_MILLIS)));
    }

    /** @return the slow and wrong provider */
    public static List<NdkProvider> faults() {
        String name = "fault:MR-TOK-6/slow-completion-shared-token";
        return List.of(Variants.builder(name, "every registration gets the same token 0x1234, and every asynchronous "
                        + "request and create completes " + DELAY_MILLIS + " ms later on the provider's own thread")
                .replace(Pieces.TOKEN_ALLOCATOR, seed -> request -> request.purpose() == TokenPurpose.PRIVILEGED ? 1 : 0x1234)
                .decorateAdapters(a -> new ForwardingAdapter(a,
                        new LegalBehaviours.Convert(LegalBehaviours.Style.FOREIGN_THREAD, DELAY_MILLIS), name))
                .build());
    }
}
