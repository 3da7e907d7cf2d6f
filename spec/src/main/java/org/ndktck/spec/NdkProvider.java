package org.ndktck.spec;

import java.util.Map;

/**
 * An NDK provider under test, found by {@link java.util.ServiceLoader} (register the class in
 * {@code META-INF/services/org.ndktck.spec.NdkProvider}) by its short {@link #name()}, or by class name.
 * A provider with many variants registers an {@link NdkProviderSource} instead.
 */
public interface NdkProvider {
    /** @return the short name users pass to {@code --provider}, e.g. {@code reference} */
    String name();

    /** @return one line on what this provider is */
    default String description() {
        return name();
    }

    /**
     * @return the settings this provider accepts, each with a one-line description of its values and default
     */
    default Map<String, String> settingDescriptions() {
        return Map.of();
    }

    /**
     * Validates the settings and returns a factory for adapters.
     *
     * @param settings {@code key=value} pairs from {@code --set}; unknown keys are an error
     * @return the configured provider
     * @throws InvalidSettingException for an unknown key or a value outside what the key allows
     */
    NdkAdapterFactory configure(Map<String, String> settings) throws InvalidSettingException;
}
