package org.ndktck.reference;

import java.util.Map;
import java.util.Objects;
import java.util.function.UnaryOperator;

import org.ndktck.spec.HostMemory;
import org.ndktck.spec.NdkAdapter;
import org.ndktck.spec.NdkAdapterFactory;

/**
 * The configured reference provider: opens {@link ReferenceAdapter}s with one {@link ReferenceSettings} and
 * one {@link ReferencePolicy}, each passed through the provider's adapter decorator (identity for the
 * reference itself).
 */
public final class ReferenceFactory implements NdkAdapterFactory {
    private final ReferenceSettings settings;
    private final ReferencePolicy policy;
    private final UnaryOperator<NdkAdapter> decorator;

    /**
     * @param settings  validated settings
     * @param policy    the pieces to use
     * @param decorator applied to every adapter opened (wrappers of the fault catalogue); identity for none
     */
    public ReferenceFactory(ReferenceSettings settings, ReferencePolicy policy, UnaryOperator<NdkAdapter> decorator) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.policy = Objects.requireNonNull(policy, "policy");
        this.decorator = Objects.requireNonNull(decorator, "decorator");
    }

    /** @return the settings */
    public ReferenceSettings settings() {
        return settings;
    }

    /** @return the policy */
    public ReferencePolicy policy() {
        return policy;
    }

    @Override
    public int pageSize() {
        return settings.pageSize();
    }

    @Override
    public Map<String, String> effectiveSettings() {
        return settings.asMap();
    }

    /**
     * @param memory host memory whose PAGE_SIZE equals the {@code pageSize} setting
     * @return a new adapter (decorated)
     * @throws NullPointerException     when {@code memory} is null
     * @throws IllegalArgumentException when the memory's PAGE_SIZE differs from the setting
     */
    @Override
    public NdkAdapter openAdapter(HostMemory memory) {
        Objects.requireNonNull(memory, "memory");
        if (memory.pageSize() != settings.pageSize()) {
            throw new IllegalArgumentException("HostMemory PAGE_SIZE " + memory.pageSize()
                    + " differs from the adapter's pageSize setting " + settings.pageSize());
        }
        NdkAdapter adapter = new ReferenceAdapter(memory, settings, policy);
        NdkAdapter decorated = decorator.apply(adapter);
        return Objects.requireNonNull(decorated, "adapter decorator returned null");
    }
}
