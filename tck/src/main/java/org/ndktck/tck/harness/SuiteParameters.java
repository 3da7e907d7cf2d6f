package org.ndktck.tck.harness;

import java.io.IOException;
import java.io.InputStream;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/**
 * The JUnit Platform configuration parameters a {@code @Suite} class declares: its
 * {@code @ConfigurationParameter(key, value)} annotations, the properties files of its
 * {@code @ConfigurationParametersResource} annotations, and whether it carries
 * {@code @DisableParentConfigurationParameters}. The suite engine hands these only to the engines of the suite
 * (jqwik), not to the launcher's {@code TestExecutionListener}s, so {@link ConfigCapture} reads them from the
 * suite class itself when the suite starts, and the kit then tests the provider the suite names.
 *
 * <p>Read reflectively by annotation name, so the kit needs no {@code junit-platform-suite-api} of its own and
 * works with whichever version the provider's build has. As in the suite engine, an explicit parameter wins over
 * one from a resource file.
 */
public final class SuiteParameters {
    private static final String API = "org.junit.platform.suite.api.";

    private SuiteParameters() {
    }

    /**
     * @param parameters         the suite's own parameters, in declaration order
     * @param disableParent      whether the suite ignores its parent's configuration parameters
     */
    public record Declared(Map<String, String> parameters, boolean disableParent) {
    }

    /**
     * @param type a class
     * @return the parameters it declares when it is a {@code @Suite} class, else empty
     */
    public static Optional<Declared> of(Class<?> type) {
        if (!annotated(type, API + "Suite")) {
            return Optional.empty();
        }
        Map<String, String> params = new LinkedHashMap<>();
        for (Annotation a : repeated(type, "ConfigurationParametersResource")) {
            String resource = String.valueOf(call(a, "value"));
            ClassLoader loader = type.getClassLoader();
            String path = resource.startsWith("/") ? resource.substring(1) : resource;
            try (InputStream in = loader == null ? null : loader.getResourceAsStream(path)) {
                if (in != null) {
                    Properties p = new Properties();
                    p.load(in);
                    p.stringPropertyNames().forEach(k -> params.put(k, p.getProperty(k)));
                }
            } catch (IOException e) {
                // an unreadable resource: the suite engine reports it; the kit reads the rest
            }
        }
        for (Annotation a : repeated(type, "ConfigurationParameter")) {
            params.put(String.valueOf(call(a, "key")), String.valueOf(call(a, "value")));
        }
        return Optional.of(new Declared(params, annotated(type, API + "DisableParentConfigurationParameters")));
    }

    private static boolean annotated(Class<?> type, String annotationName) {
        for (Annotation a : type.getAnnotations()) {
            if (a.annotationType().getName().equals(annotationName)) {
                return true;
            }
        }
        return false;
    }

    @SuppressWarnings("unchecked")
    private static Annotation[] repeated(Class<?> type, String simpleName) {
        try {
            Class<?> c = Class.forName(API + simpleName, false, type.getClassLoader());
            return type.getAnnotationsByType((Class<? extends Annotation>) c);
        } catch (ClassNotFoundException | LinkageError e) {
            return new Annotation[0];
        }
    }

    private static Object call(Annotation a, String member) {
        try {
            Method m = a.annotationType().getMethod(member);
            return m.invoke(a);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return "";
        }
    }
}
