package org.ndktck.tck.properties;

import net.jqwik.api.GenerationMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Tag;
import net.jqwik.api.constraints.IntRange;
import org.ndktck.spec.Mdl;
import org.ndktck.spec.NdkMr;
import org.ndktck.spec.NdkMrFlags;
import org.ndktck.spec.NdkOpFlags;
import org.ndktck.spec.NdkSge;
import org.ndktck.spec.NtStatus;
import org.ndktck.tck.harness.Lam;
import org.ndktck.tck.harness.QpRef;
import org.ndktck.tck.harness.Registered;
import org.ndktck.tck.harness.NdkKit;
import org.ndktck.tck.harness.NdkSession;
import org.ndktck.tck.harness.SessionTools;
import org.ndktck.tck.harness.Violations;
import org.ndktck.tck.harness.WorkRequest;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Properties of work-request posting (catalog section "Work-request posting"). WRP-1 (no two calls at
 * once on one queue) binds the kit and is obeyed by it; WRP-3 (no redundant provider locks) is not
 * black-box testable.
 */
@NdkKit
public class PostingProperties {
    private static final ExecutorService FLUSHER = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "ndk-tck-flusher");
        t.setDaemon(true);
        return t;
    });

    /**
     * WRP-2: while the kit posts fast registrations, invalidations and writes on the target's QP in a loop,
     * another thread calls NdkFlush on that QP (after {@code flushAfter} posts); posting goes on until the
     * flush returned and two more rounds were posted. No call throws or hangs, and every request that was
     * accepted (returned STATUS_SUCCESS) completes exactly once, with STATUS_SUCCESS or STATUS_CANCELLED.
     * A request refused inline after the flush is allowed.
     */
    @Property(tries = 100, generation = GenerationMode.RANDOMIZED)
    @Tag("WRP-2")
    void aFlushAlongsidePostsIsHandled(@ForAll @IntRange(min = 0, max = 12) int flushAfter) {
        NdkSession.inTry(s -> {
            try (SessionTools t = SessionTools.of(s)) {
                s.qps();
                int p = s.pageSize();
                Mdl mdl = s.allocate(1).mdl(t.freshVa(), 0, p);
                Lam lam = s.buildLam(mdl, p);
                NdkMr mr = s.fastRegisterMr(1, true);
                Registered src = t.registered(s.target(), 1, 0, p, NdkMrFlags.ALLOW_LOCAL_READ);
                Registered dst = t.registered(s.peer(), 1, 0, p, NdkMrFlags.ALLOW_REMOTE_WRITE);
                QpRef q = t.target();
                CountDownLatch go = new CountDownLatch(1);
                Future<?> flush = FLUSHER.submit(() -> {
                    go.await();
                    s.invoker().run("NdkFlush", () -> "NdkFlush(target QP) from another thread", () -> q.qp().flush());
                    return null;
                });
                List<WorkRequest> accepted = new ArrayList<>();
                int round = 0;
                int after = -1;
                int flags = NdkOpFlags.ALLOW_REMOTE_READ | NdkOpFlags.ALLOW_REMOTE_WRITE;
                while (round < 64 && (after < 0 || round < after + 2)) {
                    if (round == flushAfter) {
                        go.countDown();
                    }
                    WorkRequest fr = t.fastRegister(q, mr, 1, lam.pages(), 0, p, t.freshVa(), flags);
                    WorkRequest inv = t.invalidate(q, mr, 0);
                    WorkRequest w = t.write(q, new NdkSge[]{src.sge(0, 32)}, dst.va(), dst.remoteToken(), 0);
                    for (WorkRequest wr : List.of(fr, inv, w)) {
                        if (NtStatus.STATUS_SUCCESS.equals(wr.returned())) {
                            accepted.add(wr);
                        }
                    }
                    round++;
                    if (after < 0 && flush.isDone()) {
                        after = round;
                    }
                }
                go.countDown();
                try {
                    flush.get(s.bounds().callNanos(), TimeUnit.NANOSECONDS);
                } catch (java.util.concurrent.TimeoutException e) {
                    throw Violations.of("WRP-2", "NdkFlush(target QP) while posts go on", "NdkFlush returns within the call bound", "it did not");
                } catch (java.util.concurrent.ExecutionException e) {
                    if (e.getCause() instanceof RuntimeException re) {
                        throw re;
                    }
                    throw Violations.of("WRP-2", "NdkFlush(target QP) while posts go on", "no exception", String.valueOf(e.getCause()), e.getCause());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                for (WorkRequest wr : accepted) {
                    NtStatus st = t.awaitEntry(wr, "WRP-2", "exactly one CQ entry for an accepted request, flush or not");
                    if (!NtStatus.STATUS_SUCCESS.equals(st) && !NtStatus.STATUS_CANCELLED.equals(st)) {
                        throw Violations.of("WRP-2", wr.detail() + " posted while NdkFlush ran", "STATUS_SUCCESS or STATUS_CANCELLED", "status " + st);
                    }
                }
                s.drain(s.target());
                dst.buffer().acceptActual(0, 32);
            }
        });
    }
}
