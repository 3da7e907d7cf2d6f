package org.ndktck.nativebridge;

import com.sun.jna.Function;
import com.sun.jna.Memory;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.ndktck.spec.InvalidSettingException;
import org.ndktck.tck.ProviderProcessEnded;
import org.ndktck.tck.ProviderProcesses;
import org.ndktck.tck.RuleViolation;
import org.ndktck.tck.harness.Bounds;
import org.ndktck.tck.harness.CurrentProperty;

/**
 * Process isolation of a C provider (setting {@code isolation=process}, or any {@code sanitizer}): the bridge loads
 * the relay library {@code libndk_tck_relay.so} in place of the provider's library, and the relay runs the
 * provider's library in a host process {@code ndk-tck-host} of its own (native/host/: the relay, the host and
 * their messages). The bridge calls the relay exactly as it calls a provider's library.
 *
 * <p>When the host process ends (a segmentation fault, a sanitizer's report, or the relay's kill of a call that
 * outlived the kit's call bound), the call in flight and every later call on that process's objects return
 * {@link #HOST_LOST}; the bridge turns that into a {@link RuleViolation} of the running property's first rule
 * with the relay's account (how the process ended, the path of its crash log and the log itself: the backtrace,
 * or the sanitizer's report with the stacks of the access, the allocation and the free). The next adapter the
 * kit opens starts a fresh host process (a few milliseconds), so the rest of the run goes on in the same JVM
 * and its reports are written as for any provider.
 *
 * <p>Sanitizers: {@code sanitizer=address} and {@code sanitizer=undefined} run the host built with
 * {@code -fsanitize=address,undefined}, {@code sanitizer=thread} the host built with {@code -fsanitize=thread};
 * each stops at the first report (halt_on_error). The provider's library must be built with the same flags
 * (README, "For C provider authors").
 */
final class HostRelay {
    /** What a relayed call returns when the host process has ended (NTSTATUS with the customer bit: never NDKPI's). */
    static final int HOST_LOST = 0xE0DE0001;
    /** The relay library's file name, next to the host executables. */
    static final String RELAY = "libndk_tck_relay.so";
    /** How the relay's account says it killed a host whose call outlived the kit's call bound (ndk_tck_relay.c). */
    static final String KILLED_FOR_HANG = "the relay killed the host process and its threads";
    /** Most characters of the host's account kept in a rule's message. */
    static final int MAX_ACCOUNT = 12_000;

    private final Function lost;
    private final Function refresh;

    private HostRelay(NativeLibrary relay) {
        this.lost = relay.getFunction("NdkTckRelayLost");
        this.refresh = relay.getFunction("NdkTckRelayRefresh");
    }

    /**
     * A later run in this JVM reuses the relay (one per library and sanitizer): the hosts it starts from now on write
     * their crash logs to this run's directory, and a call is bounded by this run's call bound.
     *
     * @param logDir where each host process's stderr (its crash log) goes from now on (created if missing)
     * @throws InvalidSettingException when the directory cannot be created (one line)
     */
    void refresh(Path logDir) {
        try {
            Files.createDirectories(logDir);
        } catch (IOException e) {
            throw new InvalidSettingException("cannot create the crash log directory " + logDir + ": " + e.getMessage());
        }
        refresh.invokeInt(new Object[]{logDir.toAbsolutePath().toString(), (int) Math.min(Integer.MAX_VALUE, callBoundMillis())});
    }

    /** @return the kit's call bound in milliseconds (at least 1): the relay kills a host whose call outlives it */
    static long callBoundMillis() {
        return Math.max(1, Bounds.current().callNanos() / 1_000_000);
    }

    /** The sanitizer modes: the host executable each runs and the options it gets. */
    enum Sanitizer {
        NONE("ndk-tck-host", List.of()),
        ADDRESS("ndk-tck-host-asan", List.of("ASAN_OPTIONS=halt_on_error=1:detect_leaks=0:abort_on_error=0",
                "UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1")),
        UNDEFINED("ndk-tck-host-asan", ADDRESS.env),
        THREAD("ndk-tck-host-tsan", List.of("TSAN_OPTIONS=halt_on_error=1:report_signal_unsafe=0:second_deadlock_stack=1"));

        final String exe;
        final List<String> env;

        Sanitizer(String exe, List<String> env) {
            this.exe = exe;
            this.env = env;
        }

        /**
         * @param value the {@code sanitizer} setting: none, address, undefined or thread
         * @return the mode
         * @throws InvalidSettingException for any other value
         */
        static Sanitizer of(String value) {
            try {
                return valueOf(value.trim().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new InvalidSettingException("invalid setting sanitizer=" + value + ": allowed is none, address, undefined or thread");
            }
        }
    }

    /**
     * Starts the host process for a library and reads its NDK_TCK_PROVIDER_INFO through the relay.
     *
     * @param library   the {@code library} setting
     * @param sanitizer the sanitizer mode
     * @param hostDir   the directory of the relay and the host executables, or null to look in the usual places
     * @param logDir    where each host process's stderr (its crash log) goes
     * @return the handle the bridge calls
     * @throws InvalidSettingException when the library, the relay or the host cannot be used (one line)
     */
    static NativeLibraryHandle load(String library, Sanitizer sanitizer, String hostDir, Path logDir) {
        Path path = Path.of(library).toAbsolutePath().normalize();
        Path key = Path.of(path + "#" + sanitizer);
        NativeLibraryHandle known = NativeLibraryHandle.cached(key);
        if (known != null) {
            known.relay.refresh(logDir);
            return known;
        }
        NativeLibraryHandle.checkFile(library, path);
        Path dir = hostDir(hostDir);
        Path exe = dir.resolve(sanitizer.exe);
        if (!Files.isExecutable(exe)) {
            throw new InvalidSettingException("the host executable " + exe + " is missing (hint: bash native/build-sample.sh builds it)");
        }
        try {
            Files.createDirectories(logDir);
        } catch (IOException e) {
            throw new InvalidSettingException("cannot create the crash log directory " + logDir + ": " + e.getMessage());
        }
        NativeLibrary relay;
        try {
            // one copy of the relay per library and sanitizer: each loads as a library of its own, with its own host
            Path copy = Files.createTempFile("libndk_tck_relay-", ".so");
            copy.toFile().deleteOnExit();
            Files.copy(dir.resolve(RELAY), copy, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            relay = NativeLibrary.getInstance(copy.toString());
        } catch (IOException | UnsatisfiedLinkError | RuntimeException e) {
            throw new InvalidSettingException("cannot load the relay " + dir.resolve(RELAY) + ": " + e.getMessage());
        }
        keepCallbackThreadsAttached();
        StringBuilder env = new StringBuilder();
        for (String e : sanitizer.env) {
            env.append(e).append('\0');
        }
        byte[] envBytes = env.toString().getBytes(StandardCharsets.UTF_8);
        Memory envMem = new Memory(envBytes.length + 1L);
        envMem.clear();
        envMem.write(0, envBytes, 0, envBytes.length);
        Memory message = new Memory(1024);
        message.clear();
        // the relay kills a host whose call outlived the kit's call bound, with its spinning threads: the hang costs
        // its bound once, and whatever that process was doing is charged to GEN-TIME-1 (see check)
        long bound = callBoundMillis();
        int status = relay.getFunction("NdkTckRelayStart").invokeInt(new Object[]{exe.toString(), path.toString(),
                logDir.toAbsolutePath().toString(), envMem, envBytes.length, (int) Math.min(Integer.MAX_VALUE, bound), message, 1024});
        if (status != 0) {
            String text = message.getString(0);
            throw new InvalidSettingException(text.lines().findFirst().orElse("the host process for " + library + " did not start"));
        }
        // before the runner reruns a property alone to confirm a crash, it asks for a fresh host process
        Function retire = relay.getFunction("NdkTckRelayRetire");
        ProviderProcesses.register(() -> retire.invokeInt(new Object[0]));
        return NativeLibraryHandle.of(key, path, relay, library, new HostRelay(relay));
    }

    /**
     * The relay calls the bridge's callbacks from a few long-lived threads (its reader, its completion pool):
     * they stay attached to the JVM between callbacks (JNA detaches a native thread when it exits), which saves
     * an attach and a detach per completion and per frame access.
     */
    private static void keepCallbackThreadsAttached() {
        for (com.sun.jna.Callback cb : new com.sun.jna.Callback[]{Bridge.REQUEST, Bridge.CREATE, Bridge.CLOSE, Bridge.READ_FRAME,
            Bridge.WRITE_FRAME}) {
            com.sun.jna.Native.setCallbackThreadInitializer(cb, new com.sun.jna.CallbackThreadInitializer(true, false, "ndk-tck-relay"));
        }
    }

    /** @return the directory holding the relay and the host executables */
    static Path hostDir(String given) {
        List<Path> candidates = new ArrayList<>();
        if (given != null && !given.isBlank()) {
            candidates.add(Path.of(given));
        } else {
            candidates.add(Path.of("native", "target", "native"));
            try {
                Path code = Path.of(HostRelay.class.getProtectionDomain().getCodeSource().getLocation().toURI());
                // native/target/classes -> native/target/native; cli/target/ndk-tck.jar -> native/target/native
                candidates.add(code.getParent().resolve("native"));
                candidates.add(code.getParent().getParent().getParent().resolve("native").resolve("target").resolve("native"));
            } catch (Exception | Error ignored) {
                // no code source: the working directory's candidate only
            }
        }
        for (Path c : candidates) {
            if (Files.isRegularFile(c.resolve(RELAY))) {
                return c.toAbsolutePath().normalize();
            }
        }
        throw new InvalidSettingException("the relay " + RELAY + " is not in " + candidates
                + " (hint: bash native/build-sample.sh builds it; --set hostDir=DIR names its directory)");
    }

    private static final String[] ADAPTER = {"NdkCloseAdapter", "NdkQueryAdapterInfo", "NdkCreateCq", "NdkCreatePd",
        "NdkBuildLam", "NdkReleaseLam", "NdkTckConnectLoopback"};
    private static final String[] PD = {"NdkClosePd", "NdkCreateQp", "NdkCreateMr", "NdkGetPrivilegedMemoryRegionToken"};
    private static final String[] MR = {"NdkCloseMr", "NdkInitializeFastRegisterMr", "NdkRegisterMr", "NdkDeregisterMr",
        "NdkGetLocalTokenFromMr", "NdkGetRemoteTokenFromMr"};
    private static final String[] CQ = {"NdkCloseCq", "NdkGetCqResults", "NdkGetCqResultsEx"};
    private static final String[] QP = {"NdkCloseQp", "NdkFlush", "NdkSend", "NdkReceive", "NdkFastRegister", "NdkInvalidate",
        "NdkRead", "NdkWrite", "NdkSendAndInvalidate"};

    /** @return the NDKPI name of dispatch member {@code index} of {@code object}'s table */
    static String member(NativeObject object, int index) {
        String[] names = object instanceof NativeAdapter ? ADAPTER : object instanceof NativePd ? PD : object instanceof NativeMr ? MR
                : object instanceof NativeCq ? CQ : QP;
        return index >= 0 && index < names.length ? names[index] : "dispatch member " + index;
    }

    /**
     * Checks a relayed call's result: when it is {@link #HOST_LOST} and the object's host process has ended,
     * the running property's first rule FAILs with the relay's account.
     *
     * @param result the call's result (an NTSTATUS, a token or a count)
     * @param object the object the call was made on (a relay proxy), or null for any
     * @param call   the dispatch member's name, for the message
     * @throws RuleViolation when the host process has ended
     */
    void check(int result, Pointer object, String call) {
        if (result != HOST_LOST) {
            return;
        }
        Memory text = new Memory(MAX_ACCOUNT + 1L);
        text.clear();
        if (lost.invokeInt(new Object[]{object, text, MAX_ACCOUNT}) == 0) {
            return; // a token or a count that happens to equal the value
        }
        String account = text.getString(0);
        // a host killed for a hung call: every call it was still serving, on this property's thread or a later one's,
        // fails for that hang (GEN-TIME-1), not for the rule of whichever property made it
        boolean hang = account.contains(KILLED_FOR_HANG);
        String rule = hang ? "GEN-TIME-1" : CurrentProperty.primaryRule("GEN-EXC-1");
        throw new ProviderProcessEnded(rule, "the C provider's host process ended during " + call
                + " (the kit goes on with a fresh process): " + cause(rule, account), signature(account), hang);
    }

    /** The first rule charged with each cause of a host's end in this JVM, and how often it recurred. */
    private static final java.util.concurrent.ConcurrentHashMap<String, String> CAUSES = new java.util.concurrent.ConcurrentHashMap<>();
    /** The crash logs of each cause: one per host process that ended of it. */
    private static final java.util.concurrent.ConcurrentHashMap<String, java.util.Set<String>> SEEN =
            new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * Groups the ends of host processes by cause, so that one bug met by many properties reads as one: the cause is
     * the sanitizer's SUMMARY line, else the first backtrace line in the provider's library, else the way the
     * process ended. The first occurrence keeps the whole account; a later one names the cause, the rule first
     * charged with it and how many host processes it has ended so far (distinct crash logs), then its own account.
     *
     * @param rule    the rule charged now
     * @param account the relay's account
     * @return the account, prefixed with the cause when it was seen before in this JVM
     */
    static String cause(String rule, String account) {
        String key = signature(account);
        String first = CAUSES.putIfAbsent(key, rule);
        java.util.regex.Matcher log = java.util.regex.Pattern.compile("crash log (\\S+)").matcher(account);
        java.util.Set<String> logs = SEEN.computeIfAbsent(key, k -> java.util.concurrent.ConcurrentHashMap.newKeySet());
        logs.add(log.find() ? log.group(1) : account);
        int n = logs.size();
        if (first == null) {
            return account;
        }
        return "the same cause as the host process that ended in a property of " + first + " (host process " + n
                + " it ended in this run): " + key + "; " + account;
    }

    /** @return the cause of a host's end in its account (see {@link #cause}) */
    static String signature(String account) {
        for (String line : account.lines().toList()) {
            if (line.startsWith("SUMMARY: ")) {
                return line.trim();
            }
        }
        for (String line : account.lines().toList()) {
            String t = line.trim();
            if (t.startsWith("/") && t.contains(".so(") && !t.contains("libc.so") && !t.contains("ndk-tck-host")) {
                return "crash at " + t.replaceAll("\\[0x[0-9a-f]+\\]$", "").replaceAll("^.*/", "");
            }
        }
        String head = account.lines().findFirst().orElse(account);
        return head.replaceAll("process \\d+", "process").replaceAll("crash log \\S+", "").trim();
    }
}
