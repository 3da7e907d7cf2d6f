package org.ndktck.nativebridge;

import com.sun.jna.Function;
import com.sun.jna.Memory;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.ndktck.spec.InvalidSettingException;

/**
 * A C provider's shared library, loaded once per path: the three entry points of
 * {@code ndk_tck_provider.h} and its NDK_TCK_PROVIDER_INFO. Every way it can be unusable (no such file,
 * not loadable, a missing symbol, another header version) is an {@link InvalidSettingException} of one line
 * naming the library and the cause, which the kit turns into exit 2.
 */
final class NativeLibraryHandle {
    /** The entry points every library must export. */
    static final String[] SYMBOLS = {"NdkTckGetProviderInfo", "NdkTckConfigure", "NdkTckOpenAdapter"};

    private static final Map<Path, NativeLibraryHandle> LOADED = new ConcurrentHashMap<>();

    final Path path;
    final String name;
    final String description;
    /** Each setting the library accepts, with its default value (in the library's order). */
    final Map<String, String> defaults;
    /** Each setting the library accepts, with its one-line description. */
    final Map<String, String> descriptions;
    final Function configure;
    final Function openAdapter;
    /** The relay that runs the library in a host process (setting isolation=process), or null in-process. */
    final HostRelay relay;

    private NativeLibraryHandle(Path path, String name, String description, Map<String, String> defaults,
                                Map<String, String> descriptions, Function configure, Function openAdapter, HostRelay relay) {
        this.relay = relay;
        this.path = path;
        this.name = name;
        this.description = description;
        this.defaults = defaults;
        this.descriptions = descriptions;
        this.configure = configure;
        this.openAdapter = openAdapter;
    }

    /**
     * @param library the {@code library} setting: a path to a shared library
     * @return the loaded library
     * @throws InvalidSettingException for a library that cannot be used, naming the cause
     */
    static NativeLibraryHandle load(String library) {
        Path path = Path.of(library).toAbsolutePath().normalize();
        NativeLibraryHandle known = LOADED.get(path);
        if (known != null) {
            return known;
        }
        checkFile(library, path);
        NativeLibrary lib;
        try {
            lib = NativeLibrary.getInstance(path.toString());
        } catch (UnsatisfiedLinkError | RuntimeException e) {
            throw new InvalidSettingException("cannot load native provider library " + library + ": " + cause(e));
        }
        return of(path, path, lib, library, null);
    }

    /** @return the cached handle under {@code key}, or null */
    static NativeLibraryHandle cached(Path key) {
        return LOADED.get(key);
    }

    /**
     * @throws InvalidSettingException when the library's file is missing or unreadable
     */
    static void checkFile(String library, Path path) {
        if (!Files.exists(path)) {
            throw new InvalidSettingException("cannot load native provider library " + library + ": no such file");
        }
        if (!Files.isRegularFile(path) || !Files.isReadable(path)) {
            throw new InvalidSettingException("cannot load native provider library " + library + ": not a readable file");
        }
    }

    /**
     * Reads the entry points and NDK_TCK_PROVIDER_INFO of a loaded library (the provider's own, or the relay that
     * runs it in a host process).
     *
     * @param cacheKey the cache key
     * @param path    the provider library's path (for messages)
     * @param lib     the library whose entry points the bridge calls
     * @param library the setting as given (for messages)
     * @param relay   the relay, when {@code lib} is the relay library; else null
     * @return the handle
     */
    static NativeLibraryHandle of(Path cacheKey, Path path, NativeLibrary lib, String library, HostRelay relay) {
        Function[] fns = new Function[SYMBOLS.length];
        for (int i = 0; i < SYMBOLS.length; i++) {
            try {
                fns[i] = lib.getFunction(SYMBOLS[i]);
            } catch (UnsatisfiedLinkError e) {
                throw new InvalidSettingException("native provider library " + library + " lacks the symbol " + SYMBOLS[i]
                        + " (a C provider exports NdkTckGetProviderInfo, NdkTckConfigure and NdkTckOpenAdapter; see "
                        + "native/include/ndk_tck_provider.h)");
            }
        }
        Pointer info = (Pointer) fns[0].invoke(Pointer.class, new Object[0]);
        if (info == null) {
            throw new InvalidSettingException("native provider library " + library + ": NdkTckGetProviderInfo returned NULL");
        }
        int version = info.getInt(0);
        if (version != NativeProvider.HEADER_VERSION) {
            throw new InvalidSettingException("native provider library " + library + " was built against ndk_tck_provider.h version "
                    + Integer.toUnsignedString(version) + "; this kit speaks version " + NativeProvider.HEADER_VERSION
                    + " (rebuild it against native/include/ndk_tck_provider.h)");
        }
        String name = string(info.getPointer(8), "native");
        String description = string(info.getPointer(16), name);
        int count = info.getInt(24);
        Pointer settings = info.getPointer(32);
        Map<String, String> defaults = new LinkedHashMap<>();
        Map<String, String> descriptions = new LinkedHashMap<>();
        for (int i = 0; settings != null && i < count && i < 1024; i++) {
            long at = (long) i * Layout.SETTING_INFO_SIZE;
            String key = string(settings.getPointer(at), null);
            if (key != null) {
                defaults.put(key, string(settings.getPointer(at + 8), ""));
                descriptions.put(key, string(settings.getPointer(at + 16), "") + "; default " + defaults.get(key));
            }
        }
        NativeLibraryHandle h = new NativeLibraryHandle(path, name, description, defaults, descriptions, fns[1], fns[2], relay);
        LOADED.putIfAbsent(cacheKey, h);
        return LOADED.get(cacheKey);
    }

    /**
     * NdkTckConfigure.
     *
     * @param settings the provider's own settings (the bridge's removed)
     * @return the C configuration and its PAGE_SIZE
     * @throws InvalidSettingException with the library's one-line message when it rejects a setting
     */
    Configured configure(Map<String, String> settings) {
        int n = settings.size();
        Memory array = new Memory((long) Math.max(1, n) * Layout.SETTING_SIZE);
        Memory[] strings = new Memory[2 * n];
        int i = 0;
        for (Map.Entry<String, String> e : settings.entrySet()) {
            strings[2 * i] = cString(e.getKey());
            strings[2 * i + 1] = cString(e.getValue() == null ? "" : e.getValue());
            array.setPointer((long) i * Layout.SETTING_SIZE, strings[2 * i]);
            array.setPointer((long) i * Layout.SETTING_SIZE + 8, strings[2 * i + 1]);
            i++;
        }
        Memory message = new Memory(512);
        message.clear();
        Memory pageSize = new Memory(4);
        pageSize.setInt(0, 0);
        Memory config = new Memory(8);
        config.setPointer(0, null);
        int status = configure.invokeInt(new Object[]{array, n, message, 512, pageSize, config});
        if (status != 0) {
            String text = message.getString(0);
            throw new InvalidSettingException(text.isBlank()
                    ? String.format("native provider library %s rejected its settings (NTSTATUS 0x%08X)", path, status)
                    : text.lines().findFirst().orElse(text));
        }
        int ps = pageSize.getInt(0);
        if (ps < 4096 || Integer.bitCount(ps) != 1) {
            throw new InvalidSettingException("native provider library " + path + " reported PAGE_SIZE " + Integer.toUnsignedString(ps)
                    + " (a power of two >= 4096 is required)");
        }
        return new Configured(config.getPointer(0), ps);
    }

    /**
     * @param config   the configuration pointer NdkTckConfigure made
     * @param pageSize PAGE_SIZE in bytes
     */
    record Configured(Pointer config, int pageSize) {
    }

    static Memory cString(String s) {
        byte[] b = s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        Memory m = new Memory(b.length + 1L);
        m.write(0, b, 0, b.length);
        m.setByte(b.length, (byte) 0);
        return m;
    }

    private static String string(Pointer p, String fallback) {
        return p == null ? fallback : p.getString(0, "UTF-8");
    }

    /** The dlopen error: the first suppressed cause JNA records (its message lists every place it looked). */
    private static String cause(Throwable e) {
        for (Throwable s : e.getSuppressed()) {
            String m = String.valueOf(s.getMessage()).trim();
            if (!m.startsWith("Native library (")) {
                return m.lines().findFirst().orElse(m).trim();
            }
        }
        String m = String.valueOf(e.getMessage());
        return m.lines().map(String::trim).filter(l -> !l.isEmpty() && !l.startsWith("Unable to load library"))
                .findFirst().orElse(m.replaceAll("\\s+", " ").trim());
    }
}
