package org.ndktck.spec;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;

/**
 * Finds providers: by short name among {@link NdkProvider} and {@link NdkProviderSource} services, or by
 * the fully qualified name of a class that implements {@link NdkProvider} and has a public no-argument
 * constructor.
 *
 * <p>A services entry that cannot be loaded (the class is missing, is not an {@code NdkProvider}, its
 * constructor throws) does not hide the others: {@link #list} returns the providers that loaded and, for each
 * entry that did not, one line naming the class and the cause with the exception's own message.
 */
public final class Providers {
    private Providers() {
    }

    /**
     * The providers of a class loader's services, and the entries that could not be loaded.
     *
     * @param providers every provider that loaded, sorted by name
     * @param errors    one line per services entry that could not be loaded, naming the class and the cause
     */
    public record Listing(List<NdkProvider> providers, List<String> errors) {
    }

    /**
     * A provider named by class name exists but cannot be used as one (not an {@code NdkProvider}, no public
     * no-argument constructor, its constructor threw, it cannot be linked), or a short name matches nothing
     * while some services entries could not be loaded. The message is one line naming the cause.
     */
    public static final class LoadException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        /** @param message one line naming the cause */
        public LoadException(String message) {
            super(message);
        }
    }

    /**
     * @param loader where to look
     * @return every provider the services of {@code loader} name that could be loaded, sorted by name
     */
    public static List<NdkProvider> all(ClassLoader loader) {
        return list(loader).providers();
    }

    /**
     * @param loader where to look
     * @return the providers that loaded (sorted by name) and a line for each services entry that did not
     */
    public static Listing list(ClassLoader loader) {
        List<NdkProvider> found = new ArrayList<>();
        List<String> errors = new ArrayList<>();
        for (NdkProvider p : services(NdkProvider.class, loader, errors)) {
            found.add(p);
        }
        for (NdkProviderSource s : services(NdkProviderSource.class, loader, errors)) {
            try {
                found.addAll(s.providers());
            } catch (RuntimeException | LinkageError e) {
                errors.add(s.getClass().getName() + ": providers() threw " + describe(e));
            }
        }
        found.sort(Comparator.comparing(NdkProvider::name));
        return new Listing(List.copyOf(found), List.copyOf(errors));
    }

    private static <S> List<S> services(Class<S> type, ClassLoader loader, List<String> errors) {
        List<S> out = new ArrayList<>();
        Iterator<S> it = ServiceLoader.load(type, loader).iterator();
        // the iterator goes on to the next entry after one that fails; the bound guards against one that repeats
        for (int guard = 0; guard < 10_000; guard++) {
            try {
                if (!it.hasNext()) {
                    break;
                }
                out.add(it.next());
            } catch (ServiceConfigurationError | LinkageError | RuntimeException e) {
                errors.add(describe(e));
            }
        }
        return out;
    }

    /**
     * @param nameOrClass a short name ({@code reference}, {@code fault:MR-FR-4}) or a class name
     * @param loader      where to look
     * @return the provider, or empty when nothing matches or the named class cannot be used
     */
    public static Optional<NdkProvider> find(String nameOrClass, ClassLoader loader) {
        try {
            return Optional.ofNullable(load(nameOrClass, loader));
        } catch (LoadException e) {
            return Optional.empty();
        }
    }

    /**
     * @param nameOrClass a short name or a class name
     * @param loader      where to look
     * @return the provider, or null when no provider has that name and no class has that name
     * @throws LoadException when a class of that name exists but cannot be used as a provider, or nothing matches
     *     while services entries could not be loaded (one of them may be the provider asked for)
     */
    public static NdkProvider load(String nameOrClass, ClassLoader loader) {
        Listing listing = list(loader);
        for (NdkProvider p : listing.providers()) {
            if (p.name().equals(nameOrClass)) {
                return p;
            }
        }
        Class<?> c;
        try {
            c = Class.forName(nameOrClass, false, loader);
        } catch (ClassNotFoundException | IllegalArgumentException e) {
            c = null;
        } catch (LinkageError e) {
            throw new LoadException("provider class " + nameOrClass + " cannot be loaded: " + describe(e));
        }
        if (c == null) {
            if (!listing.errors().isEmpty()) {
                // a provider whose constructor throws never tells its name: name the failure, not an unknown provider
                throw new LoadException("cannot load provider '" + nameOrClass + "': no loadable provider has that name, and "
                        + listing.errors().size() + " provider services entr" + (listing.errors().size() == 1 ? "y" : "ies")
                        + " failed to load (it may be " + (listing.errors().size() == 1 ? "that one" : "one of them") + "): "
                        + String.join("; ", listing.errors()));
            }
            return null;
        }
        if (!NdkProvider.class.isAssignableFrom(c)) {
            throw new LoadException("provider class " + nameOrClass + " does not implement " + NdkProvider.class.getName());
        }
        if (Modifier.isAbstract(c.getModifiers())) {
            throw new LoadException("provider class " + nameOrClass + " is abstract");
        }
        try {
            return (NdkProvider) c.getConstructor().newInstance();
        } catch (NoSuchMethodException e) {
            throw new LoadException("provider class " + nameOrClass + " has no public no-argument constructor");
        } catch (InvocationTargetException e) {
            throw new LoadException("provider class " + nameOrClass + ": its constructor threw " + describe(e.getCause()));
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            throw new LoadException("provider class " + nameOrClass + " cannot be instantiated: " + describe(e));
        }
    }

    /**
     * One line for an exception: a services error's own text (without the service interface prefix), then the
     * exception that caused it, as {@code SimpleName: message}.
     *
     * @param e an exception
     * @return one line naming it and its cause
     */
    public static String describe(Throwable e) {
        if (e == null) {
            return "(no exception)";
        }
        StringBuilder sb = new StringBuilder();
        Throwable cur = e;
        if (e instanceof ServiceConfigurationError) {
            String m = String.valueOf(e.getMessage());
            int colon = m.indexOf(": ");
            sb.append(colon >= 0 && m.substring(0, colon).startsWith("org.ndktck.spec.") ? m.substring(colon + 2) : m);
            cur = e.getCause();
            if (cur instanceof InvocationTargetException ite && ite.getCause() != null) {
                cur = ite.getCause();
            }
            if (cur == null) {
                return sb.toString();
            }
            sb.append(": ");
        }
        sb.append(cur.getClass().getSimpleName());
        if (cur.getMessage() != null) {
            sb.append(": ").append(cur.getMessage().replace('\n', ' '));
        }
        Throwable cause = cur.getCause();
        if (cause != null && cause != cur && cause.getMessage() != null
                && (cur.getMessage() == null || !cur.getMessage().contains(cause.getMessage()))) {
            sb.append(" (caused by ").append(cause.getClass().getSimpleName()).append(": ")
                    .append(cause.getMessage().replace('\n', ' ')).append(")");
        }
        return sb.toString();
    }
}
