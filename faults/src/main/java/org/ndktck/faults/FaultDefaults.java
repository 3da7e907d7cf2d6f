package org.ndktck.faults;

import org.ndktck.spec.InvalidSettingException;
import org.ndktck.spec.NdkAdapterFactory;
import org.ndktck.spec.NdkProvider;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Default settings a fault carries itself. Some faults show only under a setting other than the reference
 * provider's default: GEN-CB-5 needs a small {@code maxObjects} for the kit to reach exhaustion, MR-REG-10 a
 * {@code maxRegistrationSize} the kit can register, a fault in how pending requests complete needs
 * {@code completion=pending}. Wrapped with {@link #withDefaults}, such a fault adds each of its defaults the user
 * did not set, so {@code ./ndk-tck selftest} and {@code ./ndk-tck run --provider fault:ID} catch it with default
 * settings; a value the user gives with {@code --set} wins.
 */
public final class FaultDefaults {
    private FaultDefaults() {
    }

    /**
     * @param provider the fault
     * @param defaults setting key to value, used when the key is absent from the user's settings
     * @return the fault with those defaults (same name, description and setting descriptions)
     */
    public static NdkProvider withDefaults(NdkProvider provider, Map<String, String> defaults) {
        return new WithDefaults(provider, Map.copyOf(defaults));
    }

    /**
     * @param provider a provider
     * @return the defaults it carries (empty for a provider not made by {@link #withDefaults})
     */
    public static Map<String, String> defaultsOf(NdkProvider provider) {
        return provider instanceof WithDefaults w ? w.defaults : Map.of();
    }

    private static final class WithDefaults implements NdkProvider {
        private final NdkProvider delegate;
        private final Map<String, String> defaults;

        WithDefaults(NdkProvider delegate, Map<String, String> defaults) {
            this.delegate = delegate;
            this.defaults = defaults;
        }

        @Override
        public String name() {
            return delegate.name();
        }

        @Override
        public String description() {
            return delegate.description();
        }

        @Override
        public Map<String, String> settingDescriptions() {
            return delegate.settingDescriptions();
        }

        @Override
        public NdkAdapterFactory configure(Map<String, String> settings) throws InvalidSettingException {
            Map<String, String> all = new LinkedHashMap<>(settings == null ? Map.of() : settings);
            defaults.forEach(all::putIfAbsent);
            return delegate.configure(all);
        }

        @Override
        public String toString() {
            return delegate + " with default settings " + defaults;
        }
    }
}
