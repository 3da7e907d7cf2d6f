package org.ndktck.nativebridge;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** One bug that ends the host process in many properties reads as one cause (HostRelay.cause). */
class HostCauseTest {
    private static final String SEGV = "the provider's host process 101 was killed by signal 11 (Segmentation fault); crash log /r/ndk-tck-host-1-1.log\n"
            + "ndk-tck-host: fatal signal 11 (Segmentation fault) in the provider's process; backtrace:\n"
            + "/n/ndk-tck-host(+0x1dc7)[0x56452ab03dc7]\n"
            + "/lib/x86_64-linux-gnu/libc.so.6(+0x3c050)[0x7f1057cea050]\n"
            + "/n/libcrash-test-unique.so(+0x4580)[0x7f1057ca3580]\n";
    private static final String ASAN = "the provider's host process 102 exited with code 1; crash log /r/ndk-tck-host-1-2.log\n"
            + "==102==ERROR: AddressSanitizer: heap-use-after-free on address 0x60c000000880\n"
            + "SUMMARY: AddressSanitizer: heap-use-after-free sample/unique_test.c:1234 in do_something\n";

    @Test
    void theCauseIsTheSanitizersSummaryOrTheProvidersFrame() {
        assertThat(HostRelay.signature(ASAN)).isEqualTo("SUMMARY: AddressSanitizer: heap-use-after-free sample/unique_test.c:1234 in do_something");
        assertThat(HostRelay.signature(SEGV)).isEqualTo("crash at libcrash-test-unique.so(+0x4580)");
        assertThat(HostRelay.signature("the provider's host process 7 exited with code 3; crash log /x.log"))
                .isEqualTo("the provider's host process exited with code 3;");
    }

    @Test
    void aLaterOccurrenceNamesTheFirstRuleAndKeepsItsOwnAccount() {
        String first = HostRelay.cause("MR-REG-7", SEGV);
        String later = HostRelay.cause("MR-FR-3", SEGV.replace("101", "103").replace("-1-1.log", "-1-3.log"));
        String again = HostRelay.cause("MR-FR-3", SEGV.replace("101", "103").replace("-1-1.log", "-1-3.log"));
        assertThat(first).isEqualTo(SEGV);
        assertThat(again).contains("(host process 2 it ended in this run)");
        assertThat(later).startsWith("the same cause as the host process that ended in a property of MR-REG-7 (host process 2 it ended in this run): "
                + "crash at libcrash-test-unique.so(+0x4580); ").contains("ndk-tck-host-1-3.log");
    }
}
