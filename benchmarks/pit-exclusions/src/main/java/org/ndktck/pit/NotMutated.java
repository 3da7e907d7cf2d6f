package org.ndktck.pit;

import org.pitest.bytecode.analysis.ClassTree;
import org.pitest.mutationtest.build.InterceptorParameters;
import org.pitest.mutationtest.build.InterceptorType;
import org.pitest.mutationtest.build.MutationInterceptor;
import org.pitest.mutationtest.build.MutationInterceptorFactory;
import org.pitest.mutationtest.engine.Mutater;
import org.pitest.mutationtest.engine.MutationDetails;
import org.pitest.plugin.Feature;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * A PIT mutation filter (feature {@code NDKNOTMUTATED}, on by default) that leaves unmutated the members of the
 * reference provider listed in {@code org/ndktck/pit/not-mutated.txt}, with the reason each has, so the mutation
 * score measures the behaviour the NDKPI pages bind while the reference's code carries no tool bookkeeping. A
 * listed method's lambdas ({@code lambda$NAME$N}) are left unmutated with it, as PIT's own annotation filter does.
 */
public final class NotMutated implements MutationInterceptorFactory {
    /** The list, a resource of this jar. */
    static final String LIST = "org/ndktck/pit/not-mutated.txt";

    /**
     * One entry of the list.
     *
     * @param className  binary class name, e.g. {@code org.ndktck.reference.ReferencePolicy}
     * @param method     method name ({@code <init>} for constructors), or null for the whole class
     * @param descriptor JVM method descriptor of the one overload meant, or null for every overload
     * @param scope      EQUIVALENT, PROVIDER_CHOICE, OUTSIDE_CATALOG or PLUMBING
     * @param why        the reason
     */
    record Entry(String className, String method, String descriptor, String scope, String why) {
        boolean covers(MutationDetails d) {
            if (!d.getClassName().asJavaName().equals(className)) {
                return false;
            }
            if (method == null) {
                return true;
            }
            String name = d.getMethod();
            if (name.equals(method)) {
                return descriptor == null || descriptor.equals(d.getId().getLocation().getMethodDesc());
            }
            String lambdaOf = "<init>".equals(method) ? "new" : method;
            return Pattern.matches("lambda\\$" + Pattern.quote(lambdaOf) + "\\$\\d+", name);
        }
    }

    /** @return the entries of the list, in its order */
    static List<Entry> entries() {
        InputStream in = NotMutated.class.getClassLoader().getResourceAsStream(LIST);
        if (in == null) {
            throw new IllegalStateException("the list " + LIST + " is missing from the class path");
        }
        List<Entry> out = new ArrayList<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            String line;
            int n = 0;
            while ((line = r.readLine()) != null) {
                n++;
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                String[] f = line.split(" \\| ", 4);
                if (f.length != 4) {
                    throw new IllegalStateException(LIST + " line " + n + ": four fields separated by \" | \" expected: " + line);
                }
                String member = f[1].trim();
                String method = null;
                String descriptor = null;
                if (!member.equals("*")) {
                    int paren = member.indexOf('(');
                    method = paren < 0 ? member : member.substring(0, paren);
                    descriptor = paren < 0 ? null : member.substring(paren);
                }
                out.add(new Entry(f[0].trim(), method, descriptor, f[2].trim(), f[3].trim()));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    @Override
    public MutationInterceptor createInterceptor(InterceptorParameters params) {
        List<Entry> entries = entries();
        return new MutationInterceptor() {
            private List<Entry> forClass = List.of();

            @Override
            public InterceptorType type() {
                return InterceptorType.FILTER;
            }

            @Override
            public void begin(ClassTree clazz) {
                String name = clazz.name().asJavaName();
                forClass = entries.stream().filter(e -> e.className().equals(name)).collect(Collectors.toList());
            }

            @Override
            public Collection<MutationDetails> intercept(Collection<MutationDetails> mutations, Mutater m) {
                if (forClass.isEmpty()) {
                    return mutations;
                }
                return mutations.stream().filter(d -> forClass.stream().noneMatch(e -> e.covers(d))).collect(Collectors.toList());
            }

            @Override
            public void end() {
                forClass = List.of();
            }
        };
    }

    @Override
    public Feature provides() {
        return Feature.named("NDKNOTMUTATED").withOnByDefault(true)
                .withDescription("leaves the reference provider's members listed in " + LIST + " unmutated");
    }

    @Override
    public String description() {
        return "The NDK kit's list of reference-provider code no conformance kit can check";
    }
}
