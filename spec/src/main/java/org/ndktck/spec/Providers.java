package org.ndktck.spec;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;

/**
 * Finds providers: by short name among {@link NdkProvider} and {@link NdkProviderSource} services, or by
 * the fully qualified name of a class that implements {@link NdkProvider} and has a public no-argument
 * constructor.
 */
public final class Providers {
    private Providers() {
    }

    /**
     * @param loader where to look
     * @return every provider the services of {@code loader} name, sorted by name
     */
    public static List<NdkProvider> all(ClassLoader loader) {
        List<NdkProvider> found = new ArrayList<>();
        ServiceLoader.load(NdkProvider.class, loader).forEach(found::add);
        ServiceLoader.load(NdkProviderSource.class, loader).forEach(s -> found.addAll(s.providers()));
        found.sort(Comparator.comparing(NdkProvider::name));
        return found;
    }

    /**
     * @param nameOrClass a short name ({@code reference}, {@code fault:MR-FR-4}) or a class name
     * @param loader      where to look
     * @return the provider, or empty when nothing matches
     */
    public static Optional<NdkProvider> find(String nameOrClass, ClassLoader loader) {
        for (NdkProvider p : all(loader)) {
            if (p.name().equals(nameOrClass)) {
                return Optional.of(p);
            }
        }
        try {
            Class<?> c = Class.forName(nameOrClass, true, loader);
            if (NdkProvider.class.isAssignableFrom(c)) {
                return Optional.of((NdkProvider) c.getDeclaredConstructor().newInstance());
            }
        } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
            return Optional.empty();
        }
        return Optional.empty();
    }
}
