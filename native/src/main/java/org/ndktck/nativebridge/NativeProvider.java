package org.ndktck.nativebridge;

import java.util.LinkedHashMap;
import java.util.Map;

import org.ndktck.spec.InvalidSettingException;
import org.ndktck.spec.NdkAdapterFactory;
import org.ndktck.spec.NdkProvider;

/**
 * The provider {@code native}: runs a provider written in C, a shared library built against
 * {@code native/include/ndk_tck_provider.h}, under the kit through JNA:
 * {@code ./ndk-tck run --provider native --set library=PATH.so [--set KEY=VALUE ...]}.
 *
 * <p>Settings: {@code library} (required) is the library's path; {@code crashGuard=on|off} (default on) says
 * whether {@code ./ndk-tck run} runs the kit in a child process that a crash of the library cannot take the
 * run's results with ({@link CrashGuard}); every other key goes to the library's NdkTckConfigure unchanged,
 * which validates it. A library that cannot be loaded, lacks an entry point or reports another header version
 * is a setting error of one line (exit 2). Registered in {@code META-INF/services/org.ndktck.spec.NdkProvider}.
 */
public final class NativeProvider implements NdkProvider {
    /** The short name. */
    public static final String NAME = "native";
    /** The version of ndk_tck_provider.h this bridge speaks (NDK_TCK_PROVIDER_HEADER_VERSION). */
    public static final int HEADER_VERSION = 1;
    /** Setting key: the library's path. */
    public static final String LIBRARY = "library";
    /** Setting key: the crash guard of {@code ./ndk-tck run} (on or off). */
    public static final String CRASH_GUARD = "crashGuard";
    /** Setting key: where the library runs, {@code inprocess} (the kit's JVM) or {@code process} (a host process). */
    public static final String ISOLATION = "isolation";
    /** Setting key: run the library under a sanitizer in a host process: none, address, undefined or thread. */
    public static final String SANITIZER = "sanitizer";
    /** Setting key: the directory of the relay and the host executables (default: native/target/native). */
    public static final String HOST_DIR = "hostDir";
    /** Setting key: where host processes write their crash logs (default: the report directory). */
    public static final String CRASH_LOG_DIR = "crashLogDir";
    /** The settings the bridge keeps for itself (never passed to NdkTckConfigure). */
    static final java.util.Set<String> BRIDGE_KEYS = java.util.Set.of(LIBRARY, CRASH_GUARD, ISOLATION, SANITIZER, HOST_DIR, CRASH_LOG_DIR);

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "a provider written in C: --set library=PATH.so (built against native/include/ndk_tck_provider.h; "
                + "the sample: native/target/native/libndk_sample.so)";
    }

    @Override
    public Map<String, String> settingDescriptions() {
        Map<String, String> d = new LinkedHashMap<>();
        d.put(LIBRARY, "path of the C provider's shared library (required), e.g. native/target/native/libndk_sample.so");
        d.put(CRASH_GUARD, "on|off: ./ndk-tck run survives a crash of the library in a child process; default on");
        d.put(ISOLATION, "inprocess|process: process runs the library in a host process of its own, restarted in "
                + "milliseconds after a crash or a hung call (the crash guard is then not needed); default inprocess");
        d.put(SANITIZER, "none|address|undefined|thread: runs the library (built with the README's flags) in a host "
                + "process under that sanitizer; a report FAILs the running property's rule; default none");
        d.put(HOST_DIR, "directory of libndk_tck_relay.so and ndk-tck-host*; default native/target/native");
        d.put(CRASH_LOG_DIR, "where host processes write their crash logs; default the run's report directory");
        d.put("<other>", "passed to the library's NdkTckConfigure (the sample: completion, readSinkNotRequired, "
                + "ndkVersion, pageSize, frmrPageCount, maxRegistrationSize, maxObjects, seed, transport)");
        return d;
    }

    /**
     * Loads the library and configures it.
     *
     * @param settings {@code library=PATH}, optionally {@code crashGuard}, and the library's own settings
     * @return the configured provider
     * @throws InvalidSettingException when {@code library} is missing or unusable, or the library rejects a setting
     */
    @Override
    public NdkAdapterFactory configure(Map<String, String> settings) throws InvalidSettingException {
        String library = settings.get(LIBRARY);
        if (library == null || library.isBlank()) {
            throw new InvalidSettingException("setting library is required: the path of a C provider's shared library "
                    + "(the sample: --set library=native/target/native/libndk_sample.so)");
        }
        String guard = settings.getOrDefault(CRASH_GUARD, "on");
        if (!guard.equals("on") && !guard.equals("off")) {
            throw new InvalidSettingException("invalid setting crashGuard=" + guard + ": allowed is on or off");
        }
        HostRelay.Sanitizer sanitizer = HostRelay.Sanitizer.of(settings.getOrDefault(SANITIZER, "none"));
        String isolation = settings.getOrDefault(ISOLATION, sanitizer == HostRelay.Sanitizer.NONE ? "inprocess" : "process").trim();
        if (!isolation.equals("inprocess") && !isolation.equals("process")) {
            throw new InvalidSettingException("invalid setting isolation=" + isolation + ": allowed is inprocess or process");
        }
        if (isolation.equals("inprocess") && sanitizer != HostRelay.Sanitizer.NONE) {
            throw new InvalidSettingException("setting sanitizer=" + settings.get(SANITIZER) + " needs isolation=process "
                    + "(a sanitizer runs the library in a host process)");
        }
        NativeLibraryHandle lib = isolation.equals("process")
                ? HostRelay.load(library.trim(), sanitizer, settings.get(HOST_DIR), crashLogDir(settings))
                : NativeLibraryHandle.load(library.trim());
        Map<String, String> own = new LinkedHashMap<>(settings);
        own.keySet().removeAll(BRIDGE_KEYS);
        NativeLibraryHandle.Configured configured = lib.configure(own);
        Map<String, String> effective = new LinkedHashMap<>();
        effective.put(LIBRARY, library.trim());
        effective.put(CRASH_GUARD, guard);
        effective.put(ISOLATION, isolation);
        effective.put(SANITIZER, sanitizer.name().toLowerCase(java.util.Locale.ROOT));
        if (settings.containsKey(HOST_DIR)) {
            effective.put(HOST_DIR, settings.get(HOST_DIR));
        }
        if (isolation.equals("process")) {
            effective.put(CRASH_LOG_DIR, crashLogDir(settings).toString());
        }
        lib.defaults.forEach((k, v) -> effective.put(k, own.getOrDefault(k, v)));
        own.forEach(effective::putIfAbsent);
        return new NativeFactory(lib, configured, effective);
    }

    /** @return the crash log directory: the setting, else the report directory the kit names, else the default one */
    private static java.nio.file.Path crashLogDir(Map<String, String> settings) {
        String dir = settings.get(CRASH_LOG_DIR);
        if (dir == null || dir.isBlank()) {
            dir = System.getProperty("ndk.tck.runReportDir", System.getProperty("ndk.tck.reportDir", "target/ndk-tck-report"));
        }
        return java.nio.file.Path.of(dir).toAbsolutePath().normalize();
    }
}
