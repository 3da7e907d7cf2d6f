package org.ndktck.tck.harness;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The context object the kit passes with every request (RequestContext, CreateContext, CloseContext)
 * and that the provider must hand back unchanged in the completion or CQ entry (GEN-CB-1, CQ-2). Each
 * is unique and compared by identity, so a context of another request, or one the provider made up,
 * is told apart.
 */
public final class RequestContext {
    private static final AtomicLong NEXT = new AtomicLong();

    private final long id;
    private final String call;

    /** @param call the NDK function the request is for */
    public RequestContext(String call) {
        this.id = NEXT.incrementAndGet();
        this.call = call;
    }

    /** @return the context's number, unique in the JVM */
    public long id() {
        return id;
    }

    /** @return the NDK function the request is for */
    public String call() {
        return call;
    }

    @Override
    public String toString() {
        return "ctx#" + id + "(" + call + ")";
    }

    /**
     * @param o any object a provider handed back
     * @return a readable description: the context's own text, or the foreign object's class and value
     */
    public static String describe(Object o) {
        if (o == null) {
            return "null";
        }
        if (o instanceof RequestContext) {
            return o.toString();
        }
        return "a foreign object " + o.getClass().getName() + " '" + o + "'";
    }
}
