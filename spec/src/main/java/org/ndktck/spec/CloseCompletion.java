package org.ndktck.spec;

/**
 * NDK_FN_CLOSE_COMPLETION: called exactly once after a close returned STATUS_PENDING, and never after a
 * STATUS_SUCCESS close. It is the object's last callback: everything outstanding on the object has
 * completed before it (CL-1, CL-4, CL-6).
 */
@FunctionalInterface
public interface CloseCompletion {
    /**
     * @param closeContext the context the consumer passed to the close call (may be null)
     */
    void complete(Object closeContext);
}
