package org.ndktck.tck.harness;

import org.ndktck.spec.HostMemory;
import org.ndktck.spec.InvalidSettingException;
import org.ndktck.spec.NdkAdapter;
import org.ndktck.spec.NdkAdapterFactory;
import org.ndktck.spec.NdkAdapterInfo;
import org.ndktck.spec.NdkProvider;
import org.ndktck.spec.Providers;

/**
 * The provider the current run tests: found by {@link TckConfig#provider()} with the thread context class
 * loader, configured once with the run's settings, and its NDK_ADAPTER_INFO read once (from a scratch
 * adapter) so capability gating does not open an adapter per property.
 */
public final class ProviderUnderTest {
    private static volatile ProviderUnderTest current;

    private final TckConfig config;
    private final NdkProvider provider;
    private final NdkAdapterFactory factory;
    private volatile NdkAdapterInfo adapterInfo;

    private ProviderUnderTest(TckConfig config, NdkProvider provider, NdkAdapterFactory factory) {
        this.config = config;
        this.provider = provider;
        this.factory = factory;
    }

    /** Forgets the configured provider (a new test plan starts). */
    public static synchronized void reset() {
        current = null;
    }

    /**
     * @return the provider of the current configuration
     * @throws SetupException when the provider cannot be found or rejects its settings
     */
    public static ProviderUnderTest get() {
        ProviderUnderTest p = current;
        if (p == null) {
            synchronized (ProviderUnderTest.class) {
                p = current;
                if (p == null) {
                    p = open(TckConfig.current());
                    current = p;
                }
            }
        }
        return p;
    }

    /**
     * Finds and configures a provider.
     *
     * @param config the run configuration
     * @return the provider under test
     * @throws SetupException when the provider is unknown or a setting is rejected
     */
    public static ProviderUnderTest open(TckConfig config) {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        if (loader == null) {
            loader = ProviderUnderTest.class.getClassLoader();
        }
        NdkProvider provider = Providers.find(config.provider(), loader)
                .orElseThrow(() -> new SetupException("unknown provider '" + config.provider() + "'"));
        try {
            return new ProviderUnderTest(config, provider, provider.configure(config.settings()));
        } catch (InvalidSettingException e) {
            throw new SetupException("provider '" + config.provider() + "' rejected its settings: " + e.getMessage());
        } catch (RuntimeException e) {
            throw new SetupException("provider '" + config.provider() + "' failed to configure: " + e);
        }
    }

    /** @return the run configuration */
    public TckConfig config() {
        return config;
    }

    /** @return the provider */
    public NdkProvider provider() {
        return provider;
    }

    /** @return the configured factory */
    public NdkAdapterFactory factory() {
        return factory;
    }

    /** @return PAGE_SIZE of the provider's adapters, in bytes */
    public int pageSize() {
        return factory.pageSize();
    }

    /**
     * @return NDK_ADAPTER_INFO of the provider's adapters (read once from a scratch adapter)
     * @throws SetupException when the adapter cannot be opened or queried
     */
    public NdkAdapterInfo adapterInfo() {
        NdkAdapterInfo info = adapterInfo;
        if (info == null) {
            synchronized (this) {
                info = adapterInfo;
                if (info == null) {
                    try {
                        NdkAdapter adapter = factory.openAdapter(new HostMemory(factory.pageSize()));
                        try {
                            info = adapter.queryAdapterInfo();
                        } finally {
                            adapter.close();
                        }
                    } catch (RuntimeException e) {
                        throw new SetupException("could not read NDK_ADAPTER_INFO: " + e);
                    }
                    if (info == null) {
                        throw new SetupException("NdkQueryAdapterInfo returned no NDK_ADAPTER_INFO");
                    }
                    adapterInfo = info;
                }
            }
        }
        return info;
    }

    /** The provider under test cannot be set up: a usage or setup error, not a rule failure. */
    public static final class SetupException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        /** @param message one line */
        public SetupException(String message) {
            super(message);
        }
    }
}
