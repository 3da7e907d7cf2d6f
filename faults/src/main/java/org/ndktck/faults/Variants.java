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

    /** A provider that passes everything to another and carries the asynchronous-path mark. */
    private record AsynchronousPath(NdkProvider inner) implements NdkProvider, org.ndktck.spec.AsynchronousPathFault {
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
