package org.ndktck.faults;

import java.util.Objects;
import java.util.function.Supplier;

import org.ndktck.reference.ReferenceProvider;
import org.ndktck.spec.NdkProvider;
import org.ndktck.spec.NtStatus;

/**
 * Builds the providers of this module: the reference provider, its adapters wrapped in a
 * {@link ForwardingAdapter} with fresh {@link Hooks} per adapter. Settings are the reference provider's
 * ({@code --set completion=pending} and so on); every wrapper works in every completion style.
 */
public final class Variants {
    private Variants() {
    }

    /**
     * @param name        {@code fault:RULE-ID[/variant]} or {@code legal:behaviour}
     * @param description one line: what the provider breaks (or does that is unusual but allowed)
     * @param hooks       makes the hooks of one adapter (called once per adapter opened)
     * @return the provider
     */
    public static NdkProvider wrapped(String name, String description, Supplier<? extends Hooks> hooks) {
        Objects.requireNonNull(hooks, "hooks");
        return builder(name, description).decorateAdapters(a -> new ForwardingAdapter(a, hooks.get(), name)).build();
    }

    /**
     * @param name        the provider's name
     * @param description one line on what it breaks
     * @return a reference builder with the name and description set, for faults that replace pieces
     */
    public static ReferenceProvider.Builder builder(String name, String description) {
        return ReferenceProvider.builder().name(name).description(description);
    }

    /**
     * Marks a fault whose breach lives on the asynchronous path (STATUS_PENDING and its completion), so {@code
     * ./ndk-tck selftest} proves the kit against it under {@code completion=pending} as well as inline
     * ({@link org.ndktck.spec.AsynchronousPathFault}).
     *
     * @param fault the fault provider
     * @return a provider that behaves as {@code fault} and carries the mark
     */
    public static NdkProvider onAsynchronousPath(NdkProvider fault) {
        return new AsynchronousPath(fault);
    }

    /**
     * Marks a fault that only the deep profile reaches (more threads, longer chains, more tries), so {@code
     * ./ndk-tck selftest} proves the kit against it at {@code --profile deep} ({@link org.ndktck.spec.DeepProfileFault}).
     *
     * @param fault the fault provider
     * @return a provider that behaves as {@code fault} and carries the mark
     */
    public static NdkProvider provedAtDeepProfile(NdkProvider fault) {
        return new ProvedAtDeepProfile(fault);
    }

    /** A provider that passes everything to another: the base of the marks the kit's proof reads. */
    private abstract static class Marked implements NdkProvider {
        private final NdkProvider inner;

        Marked(NdkProvider inner) {
            this.inner = Objects.requireNonNull(inner, "inner");
        }

        @Override
        public String name() {
            return inner.name();
        }

        @Override
        public String description() {
            return inner.description();
        }

        @Override
        public java.util.Map<String, String> settingDescriptions() {
            return inner.settingDescriptions();
        }

        @Override
        public org.ndktck.spec.NdkAdapterFactory configure(java.util.Map<String, String> settings)
                throws org.ndktck.spec.InvalidSettingException {
            return inner.configure(settings);
        }
    }

    /** Carries the asynchronous-path mark. */
    private static final class AsynchronousPath extends Marked implements org.ndktck.spec.AsynchronousPathFault {
        AsynchronousPath(NdkProvider inner) {
            super(inner);
        }
    }

    /** Carries the deep-profile mark. */
    private static final class ProvedAtDeepProfile extends Marked implements org.ndktck.spec.DeepProfileFault {
        ProvedAtDeepProfile(NdkProvider inner) {
            super(inner);
        }
    }

    /**
     * The status a replaced check returns.
     *
     * @param ok whether the check passes
     * @return STATUS_SUCCESS when {@code ok}, else STATUS_INVALID_PARAMETER
     */
    public static NtStatus failUnless(boolean ok) {
        return ok ? NtStatus.STATUS_SUCCESS : NtStatus.STATUS_INVALID_PARAMETER;
    }
}
