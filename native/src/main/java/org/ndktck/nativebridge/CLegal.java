package org.ndktck.nativebridge;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import org.ndktck.spec.InvalidSettingException;
import org.ndktck.spec.NdkAdapterFactory;
import org.ndktck.spec.NdkProvider;

/**
 * Legal C providers: the sample C provider (native/sample/ndk_sample.c, {@code libndk_sample.so}) run in the kit's JVM
 * with one freedom of the pages set, so that {@code ./ndk-tck selftest} shows the C route passing with it, in both
 * completion modes. Registered in {@code META-INF/services/org.ndktck.spec.NdkProvider}.
 * <ul>
 *   <li>{@code legal:iwarp/c-sample}: the sample with {@code transport=iwarp}: it reports NdkiWarp in
 *       NDK_ADAPTER_INFO.RdmaTechnology, and a send that finds no receive posted at the peer ends the connection
 *       (STATUS_CONNECTION_ABORTED, both QPs flushed), as iWARP does (TR-1 is judged by the declared transport).</li>
 * </ul>
 */
public final class CLegal implements NdkProvider {
    private static final String LIBRARY_FILE = "libndk_sample.so";

    @Override
    public String name() {
        return "legal:iwarp/c-sample";
    }

    @Override
    public String description() {
        return "C sample over transport iWARP: RdmaTechnology NdkiWarp, and a send that finds no receive posted at the peer "
                + "ends the connection (STATUS_CONNECTION_ABORTED, both QPs flushed) (" + LIBRARY_FILE + ", in-process)";
    }

    /** @return the provider {@code native}'s settings, and the sample's {@code completion} and {@code transport} */
    @Override
    public Map<String, String> settingDescriptions() {
        Map<String, String> d = new LinkedHashMap<>(new NativeProvider().settingDescriptions());
        d.put("completion", "inline|pending|mixed|early: how the sample's calls that may pend complete; default inline");
        d.put("transport", "the sample's NDK_ADAPTER_INFO.RdmaTechnology; default iwarp here");
        return d;
    }

    /**
     * @param settings the provider {@code native}'s and the sample's settings ({@code library} is this provider's)
     * @return the configured C provider
     * @throws InvalidSettingException when the sample library is not built
     */
    @Override
    public NdkAdapterFactory configure(Map<String, String> settings) {
        Path lib = HostRelay.hostDir(settings.get(NativeProvider.HOST_DIR)).resolve(LIBRARY_FILE);
        if (!Files.isRegularFile(lib)) {
            throw new InvalidSettingException("the sample C provider " + lib + " is missing (hint: bash native/build-sample.sh builds it)");
        }
        Map<String, String> s = new LinkedHashMap<>(settings);
        s.put(NativeProvider.LIBRARY, lib.toString());
        s.putIfAbsent("transport", "iwarp");
        return new NativeProvider().configure(s);
    }
}
