package org.ndktck.tck.sections;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.ndktck.tck.kit.KitRun;
import org.ndktck.tck.properties.DeregisterProperties;
import org.ndktck.tck.properties.FastRegisterInitProperties;
import org.ndktck.tck.properties.TokenProperties;
import org.ndktck.tck.properties.MrLifecycleStateProperties;
import org.ndktck.tck.properties.CloseProperties;
import org.ndktck.tck.properties.AdapterInfoProperties;
import org.ndktck.tck.properties.AdapterModelChainProperties;
import org.ndktck.tck.properties.DeferProperties;
import org.ndktck.tck.properties.CqProperties;
import org.ndktck.tck.properties.FlushProperties;
import org.ndktck.tck.properties.PostingProperties;
import org.ndktck.tck.properties.ReadWriteProperties;
import org.ndktck.tck.properties.InvalidateProperties;
import org.ndktck.tck.properties.LamProperties;
import org.ndktck.tck.properties.MdlVirtualAddressProperties;
import org.ndktck.tck.properties.InlineRequestProperties;
import org.ndktck.tck.properties.SgeProperties;
import org.ndktck.tck.properties.SgePositionProperties;
import org.ndktck.tck.properties.PrivilegedTokenProperties;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each fault of {@code org.ndktck.faults.SectionFaults} is caught: the kit, run through the JUnit Platform
 * Launcher against {@code fault:RULE-ID/variant} with the rule's tag selected and at most 200 tries, fails
 * a property whose first failure is a violation of that rule ({@link KitRun.Result#assertCaught}).
 */
class SectionFaultsTest {

    /** One fault and how to catch it. */
    record Case(String fault, String rule, Class<?> properties, Map<String, String> settings, int tries) {
        Case(String fault, Class<?> properties) {
            this(fault, fault.substring("fault:".length(), fault.indexOf('/') < 0 ? fault.length() : fault.indexOf('/')),
                    properties, Map.of(), 50);
        }

        /** @return this case with another try count (a stateful property whose chains reach the fault's step by chance) */
        Case tries(int n) {
            return new Case(fault, rule, properties, settings, n);
        }

        Case with(String key, String value) {
            Map<String, String> m = new java.util.LinkedHashMap<>(settings);
            m.put(key, value);
            return new Case(fault, rule, properties, m, tries);
        }
    }

    static List<Case> cases() {
        List<Case> c = new ArrayList<>();
        c.add(new Case("fault:MR-DEREG-2/refuses", DeregisterProperties.class));
        c.add(new Case("fault:MR-DEREG-3/token-kept", DeregisterProperties.class));
        for (String f : List.of("fault:MR-FRI-2/off-by-one", "fault:MR-FRI-3/no-limit", "fault:MR-FRI-4/limit-at-frmr",
                "fault:MR-FRI-6/not-reentrant", "fault:MR-FRI-7/first-fast-register-refused", "fault:MR-FRI-8/informational-status")) {
            c.add(new Case(f, FastRegisterInitProperties.class));
        }
        for (String f : List.of("fault:MR-TOK-1/token-late", "fault:MR-TOK-2/wrong-local-token", "fault:MR-TOK-5/changes-on-reread",
                "fault:MR-TOK-6/shared-token")) {
            c.add(new Case(f, TokenProperties.class));
        }
        for (String f : List.of("fault:PRIV-1/privileged-refused", "fault:PRIV-2/pd-wide-key", "fault:PRIV-3/privileged-read-sink-refused")) {
            c.add(new Case(f, PrivilegedTokenProperties.class));
        }
        for (String f : List.of("fault:SGE-2/bounds-ignored", "fault:SGE-2/foreign-pd", "fault:SGE-3/token-checked",
                "fault:SGE-3/inline-first-page-only", "fault:SGE-3/inline-first-sge-only",
                "fault:SGE-3/inline-write-token-checked")) {
            c.add(new Case(f, SgeProperties.class));
        }
        for (String f : List.of("fault:SGE-5/inline-send-held-to-sge-limit", "fault:SGE-6/inline-bytes-read-at-doorbell")) {
            c.add(new Case(f, InlineRequestProperties.class));
        }
        for (String f : List.of("fault:LAM-2/gaps-accepted", "fault:LAM-3/truncates", "fault:LAM-3/size-not-returned", "fault:LAM-4/fbo-zero",
                "fault:LAM-7/informational-status", "fault:LAM-REL-1/rewrites-next")) {
            c.add(new Case(f, LamProperties.class));
        }
        c.add(new Case("fault:MR-REG-3/dereferences-va", MdlVirtualAddressProperties.class));
        c.add(new Case("fault:LAM-5/dereferences-va", MdlVirtualAddressProperties.class));
        for (String f : List.of("fault:INV-2/unconnected-accepted", "fault:INV-3/entry-lost", "fault:INV-4/token-kept", "fault:INV-5/token-kept")) {
            c.add(new Case(f, InvalidateProperties.class));
        }
        for (String f : List.of("fault:RW-2/unconnected-accepted", "fault:RW-3/read-past-end", "fault:RW-4/sink-kept",
                "fault:RW-5/silent-ignored", "fault:RW-5/silent-failure-lost")) {
            c.add(new Case(f, ReadWriteProperties.class));
        }
        c.add(new Case("fault:FL-1/flush-ignored", FlushProperties.class));
        c.add(new Case("fault:FL-1/cancelled-as-success", FlushProperties.class));
        c.add(new Case("fault:WRP-2/posts-lost-after-flush", PostingProperties.class));
        for (String f : List.of("fault:CQ-1/count-beyond-array", "fault:CQ-2/qp-context-null", "fault:CQ-2/foreign-request-context",
                "fault:CQ-3/read-as-write", "fault:CQ-3/invalidated-token-missing")) {
            c.add(new Case(f, CqProperties.class));
        }
        for (String f : List.of("fault:DEF-2/entry-after-inline-failure", "fault:DEF-3/deferred-dropped", "fault:DEF-4/held-after-inline-failure")) {
            c.add(new Case(f, DeferProperties.class));
        }
        c.add(new Case("fault:DEF-3/flush-drops-deferred", FlushProperties.class));
        for (String f : List.of("fault:CL-1/callback-after-success", "fault:CL-2/refuses-registered-mr", "fault:CL-5/close-leaves-requests",
                "fault:CL-6/success-with-children")) {
            c.add(new Case(f, CloseProperties.class));
        }
        c.add(new Case("fault:CL-4/close-callback-first", CloseProperties.class).with("completion", "pending"));
        c.add(new Case("fault:CL-9/close-returns-early", CloseProperties.class));
        c.add(new Case("fault:AI-1/frmr-8", AdapterInfoProperties.class));
        // random chains reach "invalidate, then use the old token" only in some tries: 50 tries missed it once in CI;
        // an override of 2000 is twice the standard profile, so the property runs twice its declared 100: 200 chains
        c.add(new Case("fault:MR-DEREG-3/token-kept", MrLifecycleStateProperties.class).tries(2000));
        c.add(new Case("fault:INV-4/token-kept", MrLifecycleStateProperties.class).tries(2000));
        // the adapter-model chain reaches a QP after a flush, LAMs released out of order and a fenced read behind DEFER
        // only in some chains: twice the standard profile's tries
        // PRIV-1's fault needs two LAMs built and released out of order before a privileged read: one unseeded run of
        // 120 chains missed it once, so it gets twice the chains of the others
        c.add(new Case("fault:PRIV-1/older-lam-release-unmaps-newest", AdapterModelChainProperties.class).tries(4000));
        for (String f : List.of("fault:FL-1/receive-after-flush-never-cancelled", "fault:RW-5/silent-cancel-unreported",
                "fault:RW-6/deferred-read-passes-fence",
                "fault:CL-6/pd-close-frees-child-mr-pages", "fault:RW-6/fence-ignored-for-send",
                "fault:RW-6/fence-waits-only-for-its-own-memory")) {
            c.add(new Case(f, AdapterModelChainProperties.class).tries(2000));
        }
        // a flag meeting another flag or another request kind, and a receive count over several SGEs
        c.add(new Case("fault:CQ-6/receive-bytes-first-sge-only", SgePositionProperties.class));
        c.add(new Case("fault:RW-5/silent-error-after-defer-dropped", ReadWriteProperties.class));
        c.add(new Case("fault:INV-5/silent-send-and-invalidate-plain", InvalidateProperties.class));
        // fault:MR-TOK-6/shared-token is proven by TokenProperties above; through the chain, a shared token may
        // first show as a wrong access (MR-FR-9, MR-TOK-2) before two registrations are live at once.
        return c;
    }

    @TestFactory
    Stream<DynamicTest> everySectionFaultIsCaught() {
        return cases().stream().map(k -> DynamicTest.dynamicTest(k.fault() + " fails " + k.rule(), () -> {
            KitRun run = KitRun.against(k.fault(), KitRun.Preset.SECTIONS).tries(k.tries()).classes(k.properties()).tags(k.rule())
                    .param("ndk.tck.timeoutFactor", "0.2");
            k.settings().forEach(run::set);
            KitRun.Result r = run.run();
            assertThat(r.properties()).as("properties tagged " + k.rule() + " in " + k.properties().getSimpleName()
                    + " (" + r.planned() + " planned)\n" + r.describe()).isNotEmpty();
            r.assertCaught(k.rule());
        }));
    }
}
