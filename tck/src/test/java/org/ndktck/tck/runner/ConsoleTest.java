package org.ndktck.tck.runner;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The console table's NOTE column: whole words, no repeated rule ID. */
class ConsoleTest {
    @Test
    void notesWrapAtWordsAndEndWithAnEllipsisAfterAWholeWord() {
        String reason = "the adapter does not set NDK_ADAPTER_FLAG_RDMA_READ_SINK_NOT_REQUIRED (0x00000002); AdapterFlags=0x00010011";
        List<String> lines = Console.wrap(reason, 40, 3);
        assertThat(String.join(" ", lines)).isEqualTo(reason);
        assertThat(lines).allMatch(l -> l.length() <= 48);
        List<String> cut = Console.wrap(reason, 30, 2);
        assertThat(cut).hasSize(2);
        assertThat(cut.get(1)).endsWith(" \u2026");
        assertThat(reason).contains(cut.get(1).substring(0, cut.get(1).length() - 2));
        assertThat(Console.wrap("", 10, 2)).isEmpty();
        assertThat(Console.wrap("a-very-long-word-without-spaces", 5, 2)).containsExactly("a-very-long-word-without-spaces");
    }

    @Test
    void theNoteDoesNotRepeatTheRuleId() {
        assertThat(Console.withoutRulePrefix("MR-FR-4", "[MR-FR-4] MUST: NdkFastRegister(FBO=0x0)")).isEqualTo("NdkFastRegister(FBO=0x0)");
        assertThat(Console.withoutRulePrefix("PRIV-3", "PRIV-3: the adapter does not set X")).isEqualTo("the adapter does not set X");
        assertThat(Console.withoutRulePrefix("MR-REG-9", "[MR-REG-9] SHOULD NOT: x")).isEqualTo("x");
        assertThat(Console.withoutRulePrefix("GEN-CB-1", "reported by P#x (GEN-CB-2): y")).isEqualTo("reported by P#x (GEN-CB-2): y");
        assertThat(Console.plural(1, "property", "properties")).isEqualTo("property");
        assertThat(Console.plural(2, "property", "properties")).isEqualTo("properties");
    }

    @Test
    void anActionChainSeenUnderOneRuleIsReferredToUnderTheNext() {
        java.util.Map<String, String> shown = new java.util.HashMap<>();
        String m = "[MR-TOK-2] MUST: NdkRead(...)\n  expected: x\n  after the steps: [create a normal MR, close an MR]";
        assertThat(Console.onceEach("MR-TOK-2", m, shown)).isEqualTo(m);
        assertThat(Console.onceEach("INV-4", "reported: " + m, shown))
                .endsWith("  after the steps shown under MR-TOK-2 above")
                .doesNotContain("create a normal MR");
        assertThat(Console.onceEach("MR-FR-4", "  after the steps: [other]", shown)).contains("[other]");
    }
}
