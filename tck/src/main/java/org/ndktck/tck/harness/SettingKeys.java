package org.ndktck.tck.harness;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Setting keys that {@link TckConfig} looks up as {@code ndk.tck.set.<KEY>} even when the lookup cannot
 * list its keys (JUnit configuration parameters cannot be enumerated). The reference provider's keys are
 * known; a runner registers the keys the user passed with {@code --set}.
 */
public final class SettingKeys {
    private static final Set<String> KNOWN = ConcurrentHashMap.newKeySet();

    static {
        KNOWN.addAll(Set.of("completion", "readSinkNotRequired", "ndkVersion", "pageSize", "frmrPageCount",
                "maxRegistrationSize", "maxObjects", "maxSge", "seed"));
    }

    private SettingKeys() {
    }

    /** @param key a setting key to look up */
    public static void register(String key) {
        KNOWN.add(key);
    }

    /** @return the keys looked up */
    public static Set<String> known() {
        return Set.copyOf(KNOWN);
    }
}
