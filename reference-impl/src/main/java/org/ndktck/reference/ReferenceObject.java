package org.ndktck.reference;

import java.util.List;
import java.util.Objects;

import org.ndktck.spec.CloseCompletion;
import org.ndktck.spec.NdkObject;
import org.ndktck.spec.NdkObjectHeader;
import org.ndktck.spec.NdkObjectType;
import org.ndktck.spec.NtStatus;

/**
 * What every PD, CQ, MR and QP of the model shares: its header, its life (open, closing, closed), and the
 * close rules (CL-1 to CL-6). Every field is guarded by the adapter's lock.
 *
 * <p>An object cannot finish closing while it has {@link #outstanding} requests (calls that returned
 * STATUS_PENDING whose completion has not returned) or {@link #dependents} (open or closing objects that name
 * it: the MRs and QPs of a PD, the QPs of a CQ). When both reach zero, a pending close calls its completion
 * on a pool thread and, after that returns, the object is closed and its antecedents are told.
 */
abstract class ReferenceObject implements NdkObject {
    /** The life of an object. */
    enum Life {
        OPEN, CLOSING, CLOSED
    }

    final ReferenceAdapter adapter;
    private final NdkObjectHeader header;
    Life life = Life.OPEN;
    int outstanding;
    int dependents;
    private CloseCompletion closeCompletion;
    private Object closeContext;
    private boolean closeScheduled;
    private boolean forced;

    ReferenceObject(ReferenceAdapter adapter, NdkObjectType type) {
        this.adapter = adapter;
        this.header = new NdkObjectHeader(adapter.settings().ndkVersion(), type);
    }

    @Override
    public final NdkObjectHeader header() {
        return header;
    }

    /** @return the objects this one keeps from closing (its PD; its PD and CQs for a QP); under the lock */
    abstract List<ReferenceObject> antecedents();

    /** Called under the lock when a close starts: retire tokens, flush queues. */
    void onCloseStarted() {
    }

    /** Called under the lock when the object is finally closed. */
    void onClosed() {
    }

    /** @return true while the object is open (not closing, not closed); under the lock */
    boolean isOpen() {
        return life == Life.OPEN;
    }

    /**
     * NdkCloseXxx: SUCCESS when the object could close at once (and the completion style says inline), else
     * PENDING and the completion later, as the object's last callback.
     */
    final NtStatus closeObject(CloseCompletion completion, Object closeContext) {
        Objects.requireNonNull(completion, "completion");
        adapter.lock.lock();
        try {
            if (life != Life.OPEN) {
                return NtStatus.STATUS_SUCCESS;
            }
            life = Life.CLOSING;
            onCloseStarted();
            if (outstanding == 0 && dependents == 0 && !adapter.choosePending()) {
                finishClose();
                return NtStatus.STATUS_SUCCESS;
            }
            this.closeCompletion = completion;
            this.closeContext = closeContext;
            closeIfReady();
            return NtStatus.STATUS_PENDING;
        } finally {
            adapter.lock.unlock();
        }
    }

    /** Under the lock: closes the object for the adapter's close, without a callback if none was requested. */
    final void forceClose() {
        if (life == Life.OPEN) {
            life = Life.CLOSING;
            forced = true;
            onCloseStarted();
        }
        closeIfReady();
    }

    /** Under the lock: finishes a close that waits for nothing any more. */
    final void closeIfReady() {
        if (life != Life.CLOSING || outstanding > 0 || dependents > 0 || closeScheduled) {
            return;
        }
        if (closeCompletion == null) {
            if (forced) {
                finishClose();
            }
            return;
        }
        closeScheduled = true;
        CloseCompletion completion = closeCompletion;
        Object context = closeContext;
        adapter.schedule(() -> completion.complete(context), this::finishClose);
    }

    private void finishClose() {
        life = Life.CLOSED;
        onClosed();
        adapter.objectClosed(this);
        for (ReferenceObject antecedent : antecedents()) {
            antecedent.dependents--;
            antecedent.closeIfReady();
        }
    }
}
