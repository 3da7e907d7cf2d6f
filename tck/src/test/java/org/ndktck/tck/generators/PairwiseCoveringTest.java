package org.ndktck.tck.generators;

import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The covering array holds every pair of classes of every two parameters, uses only classes that exist, and is much
 * smaller than the full product (so edges combine within a property's tries).
 */
class PairwiseCoveringTest {

    private static Set<String> pairsOf(List<int[]> rows) {
        Set<String> seen = new HashSet<>();
        for (int[] row : rows) {
            for (int i = 0; i < row.length; i++) {
                for (int j = i + 1; j < row.length; j++) {
                    seen.add(i + "=" + row[i] + "," + j + "=" + row[j]);
                }
            }
        }
        return seen;
    }

    private static void coversEveryPair(int... sizes) {
        List<int[]> rows = PairwiseCovering.rows(sizes);
        Set<String> seen = pairsOf(rows);
        for (int[] row : rows) {
            assertThat(row).hasSize(sizes.length);
            for (int i = 0; i < row.length; i++) {
                assertThat(row[i]).isBetween(0, sizes[i] - 1);
            }
        }
        for (int i = 0; i < sizes.length; i++) {
            for (int j = i + 1; j < sizes.length; j++) {
                for (int a = 0; a < sizes[i]; a++) {
                    for (int b = 0; b < sizes[j]; b++) {
                        assertThat(seen).as("sizes %s", java.util.Arrays.toString(sizes)).contains(i + "=" + a + "," + j + "=" + b);
                    }
                }
            }
        }
    }

    @Test
    void everyPairOfClassesMeetsInSomeRow() {
        coversEveryPair(4, 3, 3, 6, 5, 4);
        coversEveryPair(2, 2, 2);
        coversEveryPair(7, 1, 3);
        coversEveryPair(5);
        coversEveryPair(3, 3);
    }

    @Test
    void theRegisterParametersNeedFarFewerRowsThanTheirProduct() {
        List<int[]> rows = CombinedRegPlans.rows();
        int product = CombinedRegPlans.PARAMETERS.stream().mapToInt(List::size).reduce(1, (a, b) -> a * b);
        // the largest pair product (6 x 5 = 30) is a lower bound; the greedy array stays close to it
        assertThat(rows.size()).isBetween(30, 45).isLessThan(product / 50);
    }

    @Test
    void twoParametersGiveTheirFullProductOnce() {
        assertThat(PairwiseCovering.rows(3, 4)).hasSize(12);
        assertThat(pairsOf(PairwiseCovering.rows(3, 4))).hasSize(12);
    }

    @Test
    void aParameterWithoutClassesIsRefused() {
        assertThatThrownBy(() -> PairwiseCovering.rows(3, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
