package org.ndktck.tck.harness;

import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.util.ArrayList;
import java.util.List;

/**
 * A property's falsifying sample as the reports print it: jqwik's list of the method's parameters, with each value that
 * does not name itself (a number, a boolean, a character, a string, an enum constant) named by its parameter, so a
 * counterexample reads {@code [pages=2, fbo=2, pick=-1]} rather than {@code [2, 2, -1]}. A value of one of the kit's own
 * plan types keeps its text, which names its fields ({@code RegPlan{VA=0x..., Length=0x...}}). The names come from the
 * class files (the build compiles with {@code -parameters}); without them the list is jqwik's.
 */
public final class SampleText {
    private SampleText() {
    }

    /**
     * @param method the property method, or null
     * @param values the sample's parameter values, in the method's order
     * @return the sample as text, {@code [a, b, ...]}
     */
    public static String of(Method method, List<Object> values) {
        Parameter[] ps = method == null ? new Parameter[0] : method.getParameters();
        if (ps.length != values.size() || ps.length > 0 && !ps[0].isNamePresent()) {
            return values.toString();
        }
        List<String> out = new ArrayList<>();
        for (int i = 0; i < ps.length; i++) {
            Object v = values.get(i);
            out.add(bare(v) ? ps[i].getName() + "=" + v : String.valueOf(v));
        }
        return out.toString();
    }

    private static boolean bare(Object v) {
        return v instanceof Number || v instanceof Boolean || v instanceof Character || v instanceof CharSequence || v instanceof Enum<?>;
    }
}
