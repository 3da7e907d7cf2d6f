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
    private volatile org.ndktck.spec.NdkRdmaTechnology transport = org.ndktck.spec.NdkRdmaTechnology.UNDEFINED;

    private ProviderUnderTest(TckConfig config, NdkProvider provider, NdkAdapterFactory factory) {
        this.config = config;
        this.provider = provider;
        this.factory = factory;
    }

    private static String setupError;
    private static boolean setupChecked;
    private static String setupReportedBy;

    /** Forgets the configured provider (a new test plan starts). */
    public static synchronized void reset() {
        current = null;
        setupError = null;
        setupChecked = false;
        setupReportedBy = null;
    }

    /**
     * Whether the provider of the current configuration can be set up at all: found, configured, an adapter opened
     * and its NDK_ADAPTER_INFO read. Checked once per run (until {@link #reset}).
     *
     * @return the setup error, one line naming the cause, or empty when the provider is usable
     */
    public static synchronized java.util.Optional<String> setupError() {
        if (!setupChecked) {
            try {
                get().adapterInfo();
            } catch (SetupException e) {
                setupError = e.getMessage();
            } catch (RuntimeException e) {
                setupError = e.getMessage() == null ? e.toString() : e.getMessage(); // a bad configuration value
            }
            setupChecked = true;
        }
        return java.util.Optional.ofNullable(setupError);
    }

    /**
     * The setup error of a run is reported by one property (as its failure); the others are skipped naming it.
     *
     * @param property the property asking ({@code Class#method})
     * @return the property that reports the setup error: {@code property} for the first to ask
     */
    public static synchronized String claimSetupReport(String property) {
        if (setupReportedBy == null) {
            setupReportedBy = property;
        }
        return setupReportedBy;
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
        NdkProvider provider;
        try {
            provider = Providers.load(config.provider(), loader);
        } catch (Providers.LoadException e) {
            throw new SetupException(e.getMessage());
        }
        if (provider == null) {
            throw new SetupException("unknown provider '" + config.provider() + "'; known providers: " + known(loader));
        }
        NdkAdapterFactory factory;
        try {
            factory = provider.configure(config.settings());
        } catch (InvalidSettingException e) {
            throw new SetupException("provider '" + config.provider() + "' rejected its settings: " + e.getMessage());
        } catch (RuntimeException | LinkageError e) {
            throw new SetupException("provider '" + config.provider() + "': configure threw " + Providers.describe(e));
        }
        if (factory == null) {
            throw new SetupException("provider '" + config.provider() + "': configure returned no NdkAdapterFactory (null)");
        }
        return new ProviderUnderTest(config, provider, factory);
    }

    /**
     * @param loader where providers are looked up
     * @return the providers registered there, the fault and legal families counted, or why they cannot be listed
     */
    static String known(ClassLoader loader) {
        Providers.Listing l = Providers.list(loader);
        java.util.List<String> plain = new java.util.ArrayList<>();
        long faults = 0;
        long legal = 0;
        for (NdkProvider p : l.providers()) {
            if (p.name().startsWith("fault:")) {
                faults++;
            } else if (p.name().startsWith("legal:")) {
                legal++;
            } else {
                plain.add(p.name());
            }
        }
        StringBuilder sb = new StringBuilder(plain.isEmpty() ? "(none)" : String.join(", ", plain));
        if (faults > 0) {
            sb.append(", ").append(faults).append(" fault:* providers");
        }
        if (legal > 0) {
            sb.append(", ").append(legal).append(" legal:* providers");
        }
        if (!l.errors().isEmpty()) {
            sb.append(" (not loadable: ").append(String.join("; ", l.errors())).append(")");
        }
        return sb.toString();
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
                    String who = "provider '" + config.provider() + "': ";
                    NdkAdapter adapter;
                    try {
                        adapter = factory.openAdapter(new HostMemory(factory.pageSize()));
                    } catch (RuntimeException | LinkageError e) {
                        throw new SetupException(who + "openAdapter threw " + Providers.describe(e));
                    }
                    if (adapter == null) {
                        throw new SetupException(who + "openAdapter returned no adapter (null)");
                    }
                    try {
                        info = adapter.queryAdapterInfo();
                        transport = declaredTransport(adapter);
                    } catch (RuntimeException | LinkageError e) {
                        throw new SetupException(who + "NdkQueryAdapterInfo threw " + Providers.describe(e));
                    } finally {
                        try {
                            adapter.close();
                        } catch (RuntimeException | LinkageError e) {
                            // closing the scratch adapter is judged by the rules that close adapters
                        }
                    }
                    if (info == null) {
                        throw new SetupException(who + "NdkQueryAdapterInfo returned no NDK_ADAPTER_INFO (null)");
                    }
                    adapterInfo = info;
                }
            }
        }
        return info;
    }

    /**
     * @return the transport the adapter declares ({@link NdkAdapter#rdmaTechnology()}, read with NDK_ADAPTER_INFO from the
     *     scratch adapter); UNDEFINED before {@link #adapterInfo()} ran or when the provider does not say
     */
    public org.ndktck.spec.NdkRdmaTechnology transport() {
        return transport;
    }

    private static org.ndktck.spec.NdkRdmaTechnology declaredTransport(NdkAdapter adapter) {
        try {
            org.ndktck.spec.NdkRdmaTechnology t = adapter.rdmaTechnology();
            return t == null ? org.ndktck.spec.NdkRdmaTechnology.UNDEFINED : t;
        } catch (RuntimeException | LinkageError e) {
            return org.ndktck.spec.NdkRdmaTechnology.UNDEFINED; // a provider built against an older SPI
        }
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
