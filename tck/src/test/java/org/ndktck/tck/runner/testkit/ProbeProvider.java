package org.ndktck.tck.runner.testkit;

import org.ndktck.spec.HostMemory;
import org.ndktck.spec.InvalidSettingException;
import org.ndktck.spec.NdkAdapter;
import org.ndktck.spec.NdkAdapterFactory;
import org.ndktck.spec.NdkAdapterFlags;
import org.ndktck.spec.NdkAdapterInfo;
import org.ndktck.spec.NdkObjectHeader;
import org.ndktck.spec.NdkObjectType;
import org.ndktck.spec.NdkProvider;
import org.ndktck.spec.NdkVersion;

import java.lang.reflect.Proxy;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * A provider for the runner's own tests: it does nothing NDK-like; its settings tell the probe properties
 * ({@link Probe}) how to behave for each rule: {@code fail}, {@code advise}, {@code crash}, {@code hang}, {@code bury}, {@code halt}
 * (comma-separated rule IDs) and {@code violate} ({@code RULE>OTHER}: RULE's property reports OTHER broken).
 * Registered only in {@code runner-providers/META-INF/services}, which tests add with {@code --provider-jar}.
 */
public class ProbeProvider implements NdkProvider {
    static final Map<String, String> KEYS = new LinkedHashMap<>();

    static {
        KEYS.put("fail", "rules whose probe property fails (comma-separated)");
        KEYS.put("advise", "rules whose probe property records an advisory");
        KEYS.put("crash", "rules whose probe property throws IllegalStateException");
        KEYS.put("hang", "rules whose probe property never returns");
        KEYS.put("bury", "rules whose probe property throws IllegalStateException with a RuleViolation of the rule as its cause");
        KEYS.put("violate", "RULE>OTHER: RULE's probe property throws RuleViolation(OTHER)");
        KEYS.put("halt", "rules whose probe property ends its JVM at once (Runtime.halt(7)), as a provider may");
        KEYS.put("haltWorker", "K: in worker K of a run --jobs N, the first probe property ends the JVM at once (Runtime.halt(7))");
        KEYS.put("holdFor", "K: in worker 1 of a run --jobs N, a probe property waits (up to 60 s) until worker K claimed a property");
    }

    private final String name;
    private final Map<String, String> preset;

    /** The plain probe, {@code runner-probe}. */
    public ProbeProvider() {
        this("runner-probe", Map.of());
    }

    ProbeProvider(String name, Map<String, String> preset) {
        this.name = name;
        this.preset = preset;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String description() {
        return "runner test probe";
    }

    @Override
    public Map<String, String> settingDescriptions() {
        return KEYS;
    }

    @Override
    public NdkAdapterFactory configure(Map<String, String> settings) {
        Map<String, String> eff = new TreeMap<>();
        KEYS.keySet().forEach(k -> eff.put(k, ""));
        eff.putAll(preset);
        for (Map.Entry<String, String> e : settings.entrySet()) {
            if (!KEYS.containsKey(e.getKey())) {
                throw new InvalidSettingException("unknown setting '" + e.getKey() + "' (known: " + String.join(", ", KEYS.keySet()) + ")");
            }
            eff.put(e.getKey(), e.getValue());
        }
        return new NdkAdapterFactory() {
            @Override
            public int pageSize() {
                return 4096;
            }

            @Override
            public Map<String, String> effectiveSettings() {
                return eff;
            }

            @Override
            public NdkAdapter openAdapter(HostMemory memory) {
                NdkAdapterInfo info = new NdkAdapterInfo(NdkVersion.V1_2, NdkAdapterFlags.RDMA_READ_SINK_NOT_REQUIRED, 256,
                        1L << 32, 1L << 32, 4, 4, 4, 1 << 20, 64, 8, 8, 256, 256, 1024);
                return (NdkAdapter) Proxy.newProxyInstance(ProbeProvider.class.getClassLoader(), new Class<?>[]{NdkAdapter.class},
                        (proxy, method, args) -> switch (method.getName()) {
                            case "queryAdapterInfo" -> info;
                            case "pageSize" -> 4096;
                            case "header" -> new NdkObjectHeader(NdkVersion.V1_2, NdkObjectType.ADAPTER);
                            case "close" -> null;
                            case "toString" -> "ProbeAdapter";
                            case "hashCode" -> System.identityHashCode(proxy);
                            case "equals" -> proxy == args[0];
                            default -> throw new UnsupportedOperationException(method.getName());
                        });
            }
        };
    }
}
