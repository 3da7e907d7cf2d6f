package org.ndktck.reference;

import java.util.Map;
import java.util.Objects;
import java.util.function.UnaryOperator;

import org.ndktck.spec.InvalidSettingException;
import org.ndktck.spec.NdkAdapter;
import org.ndktck.spec.NdkAdapterFactory;
import org.ndktck.spec.NdkProvider;

/**
 * The reference provider {@code reference}: a readable, thread-safe software model of an NDK adapter (see the
 * package documentation). Registered in {@code META-INF/services/org.ndktck.spec.NdkProvider}.
 *
 * <p>Variants (the fault catalogue) are built with {@link #builder()}:
 * <pre>{@code
 * NdkProvider fault = ReferenceProvider.builder()
 *         .name("fault:MR-FR-4")
 *         .description("BaseVirtualAddress not tied to FBO")
 *         .replace(Pieces.MR_FR_4, RuleCheck.pass())
 *         .build();
 * }</pre>
 */
public final class ReferenceProvider implements NdkProvider {
    /** The short name of the reference provider. */
    public static final String NAME = "reference";

    private final String name;
    private final String description;
    private final ReferencePolicy policy;
    private final UnaryOperator<NdkAdapter> decorator;

    /** The reference provider itself (for {@link java.util.ServiceLoader}). */
    public ReferenceProvider() {
        this(NAME, "reference provider: a software model of an NDK adapter (settings: completion, "
                + "readSinkNotRequired, ndkVersion, pageSize, frmrPageCount, maxRegistrationSize, maxObjects, maxSge, seed)",
                ReferencePolicy.standard(), UnaryOperator.identity());
    }

    private ReferenceProvider(String name, String description, ReferencePolicy policy,
                              UnaryOperator<NdkAdapter> decorator) {
        this.name = name;
        this.description = description;
        this.policy = policy;
        this.decorator = decorator;
    }

    /** @return a builder starting from the reference provider */
    public static Builder builder() {
        return new Builder();
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String description() {
        return description;
    }

    @Override
    public Map<String, String> settingDescriptions() {
        return ReferenceSettings.descriptions();
    }

    /** @return the policy this provider's adapters use */
    public ReferencePolicy policy() {
        return policy;
    }

    /**
     * @param settings {@code key=value} pairs (see {@link ReferenceSettings})
     * @return a factory of adapters
     * @throws InvalidSettingException for an unknown key or a bad value (one line naming key, value, allowed values)
     */
    @Override
    public NdkAdapterFactory configure(Map<String, String> settings) throws InvalidSettingException {
        return new ReferenceFactory(ReferenceSettings.parse(settings), policy, decorator);
    }

    @Override
    public String toString() {
        return name + " " + policy;
    }

    /** Builds a variant of the reference provider: another name, some pieces replaced, adapters wrapped. */
    public static final class Builder {
        private String name = NAME;
        private String description;
        private ReferencePolicy policy = ReferencePolicy.standard();
        private UnaryOperator<NdkAdapter> decorator = UnaryOperator.identity();

        private Builder() {
        }

        /**
         * @param name the provider's short name, e.g. {@code fault:MR-FR-4}
         * @return this builder
         */
        public Builder name(String name) {
            this.name = Objects.requireNonNull(name, "name");
            return this;
        }

        /**
         * @param description one line on what the variant does
         * @return this builder
         */
        public Builder description(String description) {
            this.description = Objects.requireNonNull(description, "description");
            return this;
        }

        /**
         * Replaces one piece.
         *
         * @param piece          a piece of {@link Pieces}
         * @param implementation its replacement
         * @param <T>            the piece's interface
         * @return this builder
         */
        public <T> Builder replace(Piece<T> piece, T implementation) {
            policy = policy.with(piece, implementation);
            return this;
        }

        /**
         * Replaces one piece by ID (checked at run time against the piece's interface).
         *
         * @param id             a piece ID, e.g. {@code MR-FR-4} or {@code bounds}
         * @param implementation its replacement
         * @return this builder
         * @throws IllegalArgumentException for an unknown ID or an implementation of the wrong interface
         */
        public Builder replace(String id, Object implementation) {
            policy = policy.with(id, implementation);
            return this;
        }

        /**
         * Wraps every adapter the provider opens (after any earlier decorator), e.g. to misbehave on callbacks.
         * Wrappers of PDs, MRs, QPs and CQs should implement {@link Unwrappable}.
         *
         * @param decorator takes the adapter and returns the one the kit sees
         * @return this builder
         */
        public Builder decorateAdapters(UnaryOperator<NdkAdapter> decorator) {
            Objects.requireNonNull(decorator, "decorator");
            UnaryOperator<NdkAdapter> before = this.decorator;
            this.decorator = a -> decorator.apply(before.apply(a));
            return this;
        }

        /** @return the provider */
        public ReferenceProvider build() {
            String d = description != null ? description
                    : policy.replacedIds().isEmpty() ? new ReferenceProvider().description()
                    : "reference provider with " + policy.replacedIds() + " replaced";
            return new ReferenceProvider(name, d, policy, decorator);
        }
    }
}
