package org.ndktck.nativebridge;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import org.ndktck.spec.InvalidSettingException;
import org.ndktck.spec.NdkAdapterFactory;
import org.ndktck.spec.NdkProvider;

/**
 * The sample C provider's memory and thread faults as providers {@code fault:RULE/c-...}, so that
 * {@code ./ndk-tck selftest} runs them too: each is the provider {@code native} with one fault variant of
 * native/sample/ndk_sample.c (built by native/build-sample.sh next to the relay) in a host process
 * ({@code isolation=process}), under the sanitizer that reports it. Caught means the fault's rule FAILs with the
 * evidence: the sanitizer's report or the crash charged to it, or the rule's own violation. Registered in
 * {@code META-INF/services/org.ndktck.spec.NdkProvider}.
 */
public abstract class CFaults implements NdkProvider {
    private final String name;
    private final String library;
    private final String sanitizer;
    private final String description;

    CFaults(String name, String library, String sanitizer, String description) {
        this.name = name;
        this.library = library;
        this.sanitizer = sanitizer;
        this.description = description;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String description() {
        return "C sample, " + description + " (" + library + ", host process, sanitizer " + sanitizer + ")";
    }

    @Override
    public Map<String, String> settingDescriptions() {
        return new NativeProvider().settingDescriptions();
    }

    /**
     * @param settings the provider {@code native}'s settings (library, isolation and sanitizer are this fault's)
     * @return the configured C provider
     * @throws InvalidSettingException when the fault's library or the host is not built
     */
    @Override
    public NdkAdapterFactory configure(Map<String, String> settings) {
        Path lib = HostRelay.hostDir(settings.get(NativeProvider.HOST_DIR)).resolve(library);
        if (!Files.isRegularFile(lib)) {
            throw new InvalidSettingException("the C fault library " + lib + " is missing (hint: bash native/build-sample.sh builds it)");
        }
        Map<String, String> s = new LinkedHashMap<>(settings);
        s.put(NativeProvider.LIBRARY, lib.toString());
        s.put(NativeProvider.ISOLATION, "process");
        s.put(NativeProvider.SANITIZER, sanitizer);
        return new NativeProvider().configure(s);
    }

    /** Heap use-after-free: the old token still names a region whose frame list was freed (MR-DEREG-3). */
    public static final class UseAfterFree extends CFaults {
        /** The provider {@code fault:MR-DEREG-3/c-use-after-free}. */
        public UseAfterFree() {
            super("fault:MR-DEREG-3/c-use-after-free", "libndk_sample_fault_MR-DEREG-3_uaf_asan.so", "address",
                    "NdkDeregisterMr frees the frame list and leaves the token live");
        }
    }

    /** Double free: deregistration and retirement both free the frame list (MR-DEREG-2). */
    public static final class DoubleFree extends CFaults {
        /** The provider {@code fault:MR-DEREG-2/c-double-free}. */
        public DoubleFree() {
            super("fault:MR-DEREG-2/c-double-free", "libndk_sample_fault_MR-DEREG-2_double-free_asan.so", "address",
                    "NdkDeregisterMr frees the frame list twice");
        }
    }

    /** A data race on the token counter (MR-TOK-6). */
    public static final class Race extends CFaults {
        /** The provider {@code fault:MR-TOK-6/c-race}. */
        public Race() {
            super("fault:MR-TOK-6/c-race", "libndk_sample_fault_MR-TOK-6_race_tsan.so", "thread",
                    "the token counter moves without the adapter's lock");
        }
    }

    /** A segmentation fault on an MDL of ByteCount 0 inside a chain (MR-REG-13). */
    public static final class RareCrash extends CFaults {
        /** The provider {@code fault:MR-REG-13/c-rare-crash}. */
        public RareCrash() {
            super("fault:MR-REG-13/c-rare-crash", "libndk_sample_fault_MR-REG-13_rare-crash.so", "none",
                    "NdkRegisterMr crashes on an empty MDL inside a chain");
        }
    }

    /**
     * An MDL of ByteCount 0 between two others ends NdkBuildLam's page walk, so AdapterPageCount falls short of
     * the pages spanned by (VA, Length) (LAM-4): met only when the kit makes such a chain.
     */
    public static final class EmptyMdlInChain extends CFaults {
        /** The provider {@code fault:LAM-4/c-empty-mdl}. */
        public EmptyMdlInChain() {
            super("fault:LAM-4/c-empty-mdl", "libndk_sample_fault_LAM-4_empty-mdl.so", "none",
                    "NdkBuildLam stops at an empty MDL inside a chain");
        }
    }

    /** A busy loop on Length 0 (GEN-TIME-1). */
    public static final class RareHang extends CFaults {
        /** The provider {@code fault:GEN-TIME-1/c-rare-hang}. */
        public RareHang() {
            super("fault:GEN-TIME-1/c-rare-hang", "libndk_sample_fault_GEN-TIME-1_rare-hang.so", "none",
                    "NdkRegisterMr with Length 0 spins forever");
        }
    }
}
