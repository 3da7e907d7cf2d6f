package org.ndktck.tck.kit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ndktck.reference.Pieces;
import org.ndktck.reference.ReferenceProvider;
import org.ndktck.spec.InvalidSettingException;
import org.ndktck.spec.NdkAdapterFactory;
import org.ndktck.spec.NdkProvider;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * No hidden safety net decides a verdict. The reference refuses an access past the last page
 * frame of its registration (piece {@code frame-reach}), for a reason no rule states. Two halves:
 * <ul>
 *   <li>the reference without that refusal (its bounds checks intact) passes every rule of the data path's bounds,
 *       so no verdict of a correct provider rests on it;</li>
 *   <li>the faults that remove a bounds check from a device without that refusal ({@code fault:MR-REG-4/unchecked-dma},
 *       {@code fault:SGE-2/unchecked-dma}, whose out-of-bounds accesses reach the frames past the region:
 *       {@code FrameReachTest} of the reference shows it) are caught by their own rule, so the kit catches them by what
 *       lands in memory and what the access returns, not because the model refused.</li>
 * </ul>
 */
class NoSafetyNetTest {

    /** The reference with the DMA running on past the last frame into the frames that follow (bounds checks kept). */
    public static final class WithoutSafetyNet implements NdkProvider {
        private final ReferenceProvider inner = ReferenceProvider.builder()
                .replace(Pieces.FRAME_REACH, (lastFrame, pagesPast) -> lastFrame + pagesPast).build();

        @Override
        public String name() {
            return "reference-without-safety-net";
        }

        @Override
        public Map<String, String> settingDescriptions() {
            return inner.settingDescriptions();
        }

        @Override
        public NdkAdapterFactory configure(Map<String, String> settings) throws InvalidSettingException {
            return inner.configure(settings);
        }
    }

    @Test
    void theReferenceWithoutItsSafetyNetPassesTheBoundsRules() {
        KitRun.Result r = KitRun.against(WithoutSafetyNet.class.getName())
                .rules("MR-REG-4", "MR-FR-10", "SGE-2", "RW-3", "COV-1", "COV-4", "MR-REG-11", "MR-FR-14", "PRIV-1").tries(50).run();
        assertThat(r.failed()).as(r.describe()).isEmpty();
        assertThat(r.passed()).as(r.describe()).isNotEmpty();
        r.assertJudged(Map.of());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"fault:MR-REG-4/unchecked-dma", "fault:SGE-2/unchecked-dma"})
    void aBoundsCheckRemovedWithoutTheSafetyNetIsCaughtByItsRule(String fault) {
        String rule = fault.substring("fault:".length(), fault.indexOf('/'));
        KitRun.against(fault).rules(rule).tries(50).run().assertCaught(rule);
    }
}
