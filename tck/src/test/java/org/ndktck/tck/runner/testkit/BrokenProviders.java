package org.ndktck.tck.runner.testkit;

import org.ndktck.spec.HostMemory;
import org.ndktck.spec.NdkAdapter;
import org.ndktck.spec.NdkAdapterFactory;
import org.ndktck.spec.NdkProvider;

import java.util.Map;

/**
 * Providers that cannot be set up, for the tests of setup errors: each fails in one way before
 * any rule can be checked. Named by class name, or registered by the services files the tests write.
 */
public final class BrokenProviders {
    private BrokenProviders() {
    }

    /** Its constructor throws. */
    public static final class CtorThrows implements NdkProvider {
        /** Throws IllegalStateException("firmware blob missing"). */
        public CtorThrows() {
            throw new IllegalStateException("firmware blob missing");
        }

        @Override
        public String name() {
            return "broken-ctor";
        }

        @Override
        public NdkAdapterFactory configure(Map<String, String> settings) {
            return null;
        }
    }

    /** {@code configure} throws. */
    public static final class ConfigureThrows implements NdkProvider {
        @Override
        public String name() {
            return "broken-configure";
        }

        @Override
        public NdkAdapterFactory configure(Map<String, String> settings) {
            throw new UnsupportedOperationException("no device node /dev/ndk0");
        }
    }

    /** {@code openAdapter} throws. */
    public static final class OpenThrows implements NdkProvider {
        @Override
        public String name() {
            return "broken-open";
        }

        @Override
        public NdkAdapterFactory configure(Map<String, String> settings) {
            return factory(() -> {
                throw new IllegalStateException("adapter 0 is down");
            });
        }
    }

    /** {@code openAdapter} returns null. */
    public static final class OpenReturnsNull implements NdkProvider {
        @Override
        public String name() {
            return "broken-open-null";
        }

        @Override
        public NdkAdapterFactory configure(Map<String, String> settings) {
            return factory(() -> null);
        }
    }

    /** A class that is not an {@code NdkProvider}. */
    public static final class NotAProvider {
        /** Nothing. */
        public NotAProvider() {
        }
    }

    private static NdkAdapterFactory factory(java.util.function.Supplier<NdkAdapter> open) {
        return new NdkAdapterFactory() {
            @Override
            public int pageSize() {
                return 4096;
            }

            @Override
            public Map<String, String> effectiveSettings() {
                return Map.of();
            }

            @Override
            public NdkAdapter openAdapter(HostMemory memory) {
                return open.get();
            }
        };
    }
}
