package org.ndktck.faults;

import org.ndktck.spec.NdkObject;
import org.ndktck.spec.NtStatus;
import org.ndktck.spec.RequestCompletion;

/**
 * The hooks of {@code fault:MR-FRI-6/command-ring-8} and {@code fault:MR-FRI-6/command-ring-16} (the proofs
 * that deep is deeper): NdkInitializeFastRegisterMr commands go through a per-adapter ring of a few command slots, the
 * slot chosen by the command's sequence number, and each command holds its slot for {@link #COMMAND_NANOS} (the
 * adapter's time to take it). A command issued while as many others as the ring has slots are still in flight
 * takes the slot of the oldest, whose call then returns STATUS_SUCCESS without the initialization ever reaching the
 * adapter, so that MR's later NdkFastRegister is refused. From one thread, and with no more initializations at once
 * than slots, it is correct: the standard profile's concurrent initializations (up to 12 threads) overrun a ring of
 * 8 but not one of 16, the deep profile's (up to 24) overrun both. Since every command waits, the threads pile up
 * in the ring however the scheduler runs them (one processor or several, a loaded machine or an idle one).
 */
final class InitializationCommandRing implements Hooks {
    /** How long a command holds its slot, in nanoseconds. */
    static final long COMMAND_NANOS = 2_000_000L;

    private final Object lock = new Object();
    private final long[] slotOwner;
    private long issued;

    /** @param slots command slots of the ring, at least 1 */
    InitializationCommandRing(int slots) {
        this.slotOwner = new long[slots];
    }

    @Override
    public NtStatus request(NdkCall call, NdkObject target, RequestCompletion completion, Object context, RequestCall inner) {
        if (call != NdkCall.INITIALIZE_FAST_REGISTER_MR) {
            return inner.invoke(completion, context);
        }
        long mine;
        synchronized (lock) {
            mine = ++issued;
            slotOwner[slot(mine)] = mine;
        }
        java.util.concurrent.locks.LockSupport.parkNanos(COMMAND_NANOS);
        synchronized (lock) {
            if (slotOwner[slot(mine)] != mine) {
                return NtStatus.STATUS_SUCCESS; // the command was overwritten in its slot: nothing was initialized
            }
        }
        return inner.invoke(completion, context);
    }

    private int slot(long sequence) {
        return (int) (sequence % slotOwner.length);
    }
}
