package org.ndktck.faults;

import java.util.function.Supplier;

import org.ndktck.reference.Unwrappable;
import org.ndktck.spec.NdkObject;
import org.ndktck.spec.NdkObjectHeader;

/**
 * What the PD, MR, QP and CQ wrappers of a {@link ForwardingAdapter} share: the wrapped object, the adapter
 * wrapper that made it, its {@link Hooks}, the header call, and one slot where the adapter's hooks may keep
 * state of their own for this object ({@link #state}), so that state lives exactly as long as the object.
 *
 * @param <T> the wrapped SPI type
 */
public abstract class ForwardingObject<T extends NdkObject> implements NdkObject, Unwrappable {
    final T inner;
    final ForwardingAdapter adapter;
    final Hooks hooks;
    private Object state;

    ForwardingObject(T inner, ForwardingAdapter adapter) {
        this.inner = inner;
        this.adapter = adapter;
        this.hooks = adapter.hooks();
    }

    @Override
    public NdkObject unwrap() {
        return inner;
    }

    /** @return the wrapped object (normally the reference provider's) */
    public T inner() {
        return inner;
    }

    /** @return the adapter wrapper that made this object */
    public ForwardingAdapter adapter() {
        return adapter;
    }

    /**
     * The hooks' own state for this object, made on first use. One adapter has one hooks object, so one slot
     * per object is enough.
     *
     * @param init makes the state
     * @param <S>  the state's type
     * @return the state
     */
    @SuppressWarnings("unchecked")
    public synchronized <S> S state(Supplier<S> init) {
        if (state == null) {
            state = init.get();
        }
        return (S) state;
    }

    @Override
    public NdkObjectHeader header() {
        return hooks.call(NdkCall.HEADER, this, () -> hooks.header(this, inner.header()));
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "(" + inner + ")";
    }
}
