package org.ndktck.nativebridge;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;

import java.util.Map;
import java.util.Objects;

import org.ndktck.spec.HostMemory;
import org.ndktck.spec.NdkAdapter;
import org.ndktck.spec.NdkAdapterFactory;
import org.ndktck.spec.NtStatus;

/**
 * A configured C provider: opens adapters with NdkTckOpenAdapter over the kit's host memory, offering the
 * host services NDK_TCK_HOST (ReadFrame / WriteFrame over {@link HostMemory}).
 */
final class NativeFactory implements NdkAdapterFactory {
    final NativeLibraryHandle library;
    private final NativeLibraryHandle.Configured configured;
    private final Map<String, String> effective;

    NativeFactory(NativeLibraryHandle library, NativeLibraryHandle.Configured configured, Map<String, String> effective) {
        this.library = library;
        this.configured = configured;
        this.effective = Map.copyOf(effective);
    }

    @Override
    public int pageSize() {
        return configured.pageSize();
    }

    @Override
    public Map<String, String> effectiveSettings() {
        return new java.util.LinkedHashMap<>(effective);
    }

    /**
     * NdkTckOpenAdapter.
     *
     * @param memory host memory with this provider's PAGE_SIZE
     * @return the adapter
     * @throws IllegalArgumentException when the memory's PAGE_SIZE differs
     * @throws IllegalStateException    when the library fails to open an adapter (the status is in the message)
     */
    @Override
    public NdkAdapter openAdapter(HostMemory memory) {
        Objects.requireNonNull(memory, "memory");
        if (memory.pageSize() != pageSize()) {
            throw new IllegalArgumentException("HostMemory PAGE_SIZE " + memory.pageSize() + " differs from the library's " + pageSize());
        }
        CrashJournal.propertyStarts();
        long host = Bridge.host(memory);
        Memory hostStruct = new Memory(Layout.HOST_SIZE);
        hostStruct.setInt(0, NativeProvider.HEADER_VERSION);
        hostStruct.setInt(4, pageSize());
        hostStruct.setPointer(8, new Pointer(host));
        hostStruct.setPointer(16, Bridge.READ_FRAME_FN);
        hostStruct.setPointer(24, Bridge.WRITE_FRAME_FN);
        Memory out = new Memory(8);
        out.setPointer(0, null);
        int status = library.openAdapter.invokeInt(new Object[]{configured.config(), hostStruct, out});
        Pointer adapter = out.getPointer(0);
        if (library.relay != null) {
            try {
                library.relay.check(status, null, "NdkTckOpenAdapter");
            } catch (RuntimeException | Error e) {
                Bridge.forgetHost(host);
                throw e;
            }
        }
        if (status != 0 || adapter == null) {
            Bridge.forgetHost(host);
            throw new IllegalStateException("NdkTckOpenAdapter of " + library.path + " returned " + NtStatus.of(status)
                    + (adapter == null ? " and no adapter" : ""));
        }
        return new NativeAdapter(this, memory, host, hostStruct, adapter);
    }
}
