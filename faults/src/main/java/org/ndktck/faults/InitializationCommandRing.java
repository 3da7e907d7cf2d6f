package org.ndktck.faults;

import org.ndktck.spec.NdkObject;
import org.ndktck.spec.NtStatus;
import org.ndktck.spec.RequestCompletion;

/**
 * The hooks of {@code fault:MR-FRI-6/command-ring-8} (issue 20, item 8's proof of item 5): NdkInitializeFastRegisterMr
 * commands go through a per-adapter ring of {@link #SLOTS} command slots, the slot chosen by the command's sequence
 * number. A command that finds another in flight waits 1 ms for the hardware; a command issued while
 * {@link #SLOTS} others are still in flight takes the slot of the oldest, whose call then returns STATUS_SUCCESS
 * without the initialization ever reaching the adapter, so that MR's later NdkFastRegister is refused. From one
 * thread, and with up to {@link #SLOTS} initializations at once, it is correct: the standard profile's concurrent
 * initializations (at most 6 threads) pass, the deep profile's (up to 12) reach the ninth command in flight.
 */
final class InitializationCommandRing implements Hooks {
    /** Command slots of the ring. */
    static final int SLOTS = 8;

    private final Object lock = new Object();
    private final long[] slotOwner = new long[SLOTS];
    private long issued;
    private int inFlight;

    @Override
    public NtStatus request(NdkCall call, NdkObject target, RequestCompletion completion, Object context, RequestCall inner) {
        if (call != NdkCall.INITIALIZE_FAST_REGISTER_MR) {
            return inner.invoke(completion, context);
        }
        long mine;
        boolean busy;
        synchronized (lock) {
            mine = ++issued;
            slotOwner[slot(mine)] = mine;
            busy = inFlight++ > 0;
        }
        try {
            if (busy) {
                java.util.concurrent.locks.LockSupport.parkNanos(1_000_000L); // the hardware's time for the command ahead
            }
            synchronized (lock) {
                if (slotOwner[slot(mine)] != mine) {
                    return NtStatus.STATUS_SUCCESS; // the command was overwritten in its slot: nothing was initialized
                }
            }
            return inner.invoke(completion, context);
        } finally {
            synchronized (lock) {
                inFlight--;
            }
        }
    }

    private static int slot(long sequence) {
        return (int) (sequence % SLOTS);
    }
}
