package org.ndktck.tck.docs;

import org.ndktck.faults.Hooks;
import org.ndktck.faults.NdkCall;
import org.ndktck.faults.Variants;
import org.ndktck.spec.InvalidSettingException;
import org.ndktck.spec.NdkAdapterFactory;
import org.ndktck.spec.NdkObject;
import org.ndktck.spec.NdkProvider;
import org.ndktck.tck.harness.CurrentProperty;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The reference provider with every SPI call recorded under the rules of the kit property that made it
 * ({@link CurrentProperty#runningRules()}): what {@code docs/spi-calls.md} is generated from. Loaded by class name.
 */
public final class SpiCallRecorder implements NdkProvider {
    private static final Map<String, Set<NdkCall>> CALLS = new ConcurrentHashMap<>();

    private final NdkProvider inner = Variants.wrapped("spi-call-recorder", "the reference provider, its SPI calls recorded per rule",
            () -> new Hooks() {
                @Override
                public <T> T call(NdkCall call, NdkObject target, Supplier<T> body) {
                    for (String rule : CurrentProperty.runningRules()) {
                        CALLS.computeIfAbsent(rule, r -> ConcurrentHashMap.newKeySet()).add(call);
                    }
                    return body.get();
                }
            });

    /** A public no-argument constructor for ServiceLoader-free loading by class name. */
    public SpiCallRecorder() {
    }

    /** Forgets what was recorded. */
    public static void reset() {
        CALLS.clear();
    }

    /** @return the SPI calls recorded, by rule ID */
    public static Map<String, Set<NdkCall>> calls() {
        return new TreeMap<>(CALLS);
    }

    @Override
    public String name() {
        return "spi-call-recorder";
    }

    @Override
    public NdkAdapterFactory configure(Map<String, String> settings) throws InvalidSettingException {
        return inner.configure(settings);
    }
}
