package org.ndktck.tck.runner;

import org.ndktck.spec.NdkAdapterInfo;
import org.ndktck.spec.NdkProvider;
import org.ndktck.spec.Providers;
import org.ndktck.tck.harness.ProviderUnderTest;
import org.ndktck.tck.harness.TckConfig;

import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.jar.JarFile;
import java.util.stream.Collectors;

/**
 * Finds the provider under test: builds the class loader of {@code --provider-jar} entries (jars or
 * class directories, the provider and its dependencies) on top of the kit's own, and looks the provider up
 * by short name or class name through {@link Providers} with that loader, which the runner then installs as
 * the thread context class loader of the kit's thread.
 */
public final class ProviderLoader {
    private ProviderLoader() {
    }

    /**
     * @param jars {@code --provider-jar} entries: jar files or directories of classes
     * @return a loader over them with the kit's loader as parent (the kit's loader itself when none)
     * @throws UsageException when an entry is missing, unreadable or not a jar
     */
    public static ClassLoader classLoader(List<Path> jars) {
        ClassLoader parent = ProviderLoader.class.getClassLoader();
        if (jars.isEmpty()) {
            return parent;
        }
        List<URL> urls = new ArrayList<>();
        for (Path jar : jars) {
            String hint = "--provider-jar takes a readable .jar file or a directory of classes";
            if (!Files.exists(jar)) {
                throw new UsageException("cannot read provider jar " + jar + ": no such file", hint);
            }
            if (!Files.isReadable(jar)) {
                throw new UsageException("cannot read provider jar " + jar + ": permission denied", hint);
            }
            if (Files.isRegularFile(jar)) {
                try (JarFile opened = new JarFile(jar.toFile())) {
                    opened.getManifest(); // opens and reads: it is a jar
                } catch (IOException e) {
                    throw new UsageException("cannot read provider jar " + jar + ": not a jar (" + e.getMessage() + ")", hint);
                }
            }
            try {
                urls.add(jar.toAbsolutePath().normalize().toUri().toURL());
            } catch (MalformedURLException e) {
                throw new UsageException("cannot read provider jar " + jar + ": " + e.getMessage(), hint);
            }
        }
        return new URLClassLoader("ndk-tck-provider-jars", urls.toArray(URL[]::new), parent);
    }

    /**
     * @param loader the provider class loader
     * @return the short names of every provider it registers, sorted
     */
    public static List<String> names(ClassLoader loader) {
        try {
            return Providers.list(loader).providers().stream().map(NdkProvider::name).toList();
        } catch (RuntimeException | LinkageError e) {
            throw new UsageException("cannot list providers: " + e, "check the --provider-jar entries and their META-INF/services files");
        }
    }

    /**
     * @param name   a short name or class name
     * @param loader the provider class loader
     * @return the provider
     * @throws UsageException naming the known providers when nothing matches
     */
    public static NdkProvider find(String name, ClassLoader loader) {
        Optional<NdkProvider> p;
        try {
            p = Optional.ofNullable(Providers.load(name, loader));
        } catch (Providers.LoadException e) {
            throw new UsageException(e.getMessage(), "fix the provider class or its META-INF/services entry");
        } catch (RuntimeException | LinkageError e) {
            throw new UsageException("cannot load provider '" + name + "': " + Providers.describe(e), "check the --provider-jar entries");
        }
        return p.orElseThrow(() -> new UsageException("unknown provider '" + name + "'; known providers: "
                + describeKnown(names(loader)),
                "name one of them or a class implementing org.ndktck.spec.NdkProvider, and add its jar with --provider-jar"));
    }

    /**
     * @param names provider names
     * @return the names, with the fault and legal families summarised
     */
    static String describeKnown(List<String> names) {
        List<String> plain = names.stream().filter(n -> !n.startsWith("fault:") && !n.startsWith("legal:")).toList();
        long faults = names.stream().filter(n -> n.startsWith("fault:")).count();
        long legal = names.stream().filter(n -> n.startsWith("legal:")).count();
        StringBuilder sb = new StringBuilder(plain.isEmpty() ? "(none)" : String.join(", ", plain));
        if (faults > 0) {
            sb.append(", and ").append(faults).append(" fault:* providers (./ndk-tck providers lists them all; ./ndk-tck selftest runs them)");
        }
        if (legal > 0) {
            sb.append(", and ").append(legal).append(" legal:* providers");
        }
        return sb.toString();
    }

    /**
     * Configures the provider as the kit will ({@link ProviderUnderTest#open}) with {@code loader} as context
     * class loader, turning a rejected setting into a usage error.
     *
     * @param config the run configuration
     * @param loader the provider class loader
     * @return the configured provider
     * @throws UsageException for an unknown provider or a rejected setting
     */
    public static ProviderUnderTest open(TckConfig config, ClassLoader loader) {
        find(config.provider(), loader);
        Thread t = Thread.currentThread();
        ClassLoader before = t.getContextClassLoader();
        t.setContextClassLoader(loader);
        try {
            return ProviderUnderTest.open(config);
        } catch (ProviderUnderTest.SetupException e) {
            String keys = "";
            try {
                keys = Providers.find(config.provider(), loader).map(p -> p.settingDescriptions().keySet().stream()
                        .sorted().collect(Collectors.joining(", "))).orElse("");
            } catch (RuntimeException ignored) {
                // only for the hint
            }
            String message = e.getMessage();
            if (!keys.isEmpty()) {
                // the hint lists the provider's settings once, sorted; drop a list the provider's message repeats
                message = message.replaceAll("[:;,]?\\s*known settings are [^;()]*$", "");
            }
            throw new UsageException(message, keys.isEmpty() ? "check the --set KEY=VALUE pairs"
                    : "settings of this provider: " + keys + "; --set help lists their values and defaults");
        } finally {
            t.setContextClassLoader(before);
        }
    }

    /**
     * Reads NDK_ADAPTER_INFO within a time bound on a daemon thread, so a stuck provider cannot stop the
     * runner before the first property.
     *
     * @param put       the configured provider
     * @param loader    the provider class loader
     * @param boundMillis the time bound
     * @return the adapter info, or the reason it could not be read
     */
    public static AdapterInfoResult adapterInfo(ProviderUnderTest put, ClassLoader loader, long boundMillis) {
        CompletableFuture<NdkAdapterInfo> f = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                f.complete(put.adapterInfo());
            } catch (Throwable e) {
                f.completeExceptionally(e);
            }
        }, "ndk-tck-adapter-info");
        t.setDaemon(true);
        t.setContextClassLoader(loader);
        t.start();
        try {
            return new AdapterInfoResult(f.get(boundMillis, TimeUnit.MILLISECONDS), null, false);
        } catch (TimeoutException e) {
            return new AdapterInfoResult(null, "NdkQueryAdapterInfo did not return within " + boundMillis + " ms", true);
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            return new AdapterInfoResult(null, c instanceof ProviderUnderTest.SetupException ? c.getMessage()
                    : "provider '" + put.config().provider() + "': " + Providers.describe(c), false);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new AdapterInfoResult(null, "interrupted", true);
        }
    }

    /**
     * @param info     the adapter info, or null
     * @param error    why it is missing, or null
     * @param timedOut whether it is missing because the provider did not answer within the bound
     */
    public record AdapterInfoResult(NdkAdapterInfo info, String error, boolean timedOut) {
    }
}
