package org.ndktck.tck.generators;

import java.util.ArrayList;
import java.util.List;

/**
 * A pairwise covering array: rows of parameter classes in which every class of every parameter meets every class of
 * every other parameter in at least one row. The kit uses it to try each edge class of a request parameter together
 * with each edge class of the others (FBO with Length class, MDL count with VA class, ...), not only with valid
 * defaults, in far fewer rows than the full product.
 *
 * <p>Built greedily and deterministically (the same sizes give the same rows, so a run's edge cases do not depend on
 * its seed): each new row starts from the first pair not yet covered and fills the other parameters, one at a time, with
 * the class that covers the most uncovered pairs with the classes already chosen (ties: the lowest class). Rows stop
 * when every pair is covered.
 */
public final class PairwiseCovering {
    private PairwiseCovering() {
    }

    /**
     * @param sizes the number of classes of each parameter (each at least 1; class {@code c} of parameter {@code i} is
     *              {@code 0 <= c < sizes[i]})
     * @return the rows; row {@code r} holds one class per parameter, in parameter order
     * @throws IllegalArgumentException when a size is below 1
     */
    public static List<int[]> rows(int... sizes) {
        int k = sizes.length;
        for (int s : sizes) {
            if (s < 1) {
                throw new IllegalArgumentException("every parameter needs at least one class");
            }
        }
        // covered[i][j][a * sizes[j] + b]: class a of parameter i met class b of parameter j (i < j)
        boolean[][][] covered = new boolean[k][k][];
        int uncovered = 0;
        for (int i = 0; i < k; i++) {
            for (int j = i + 1; j < k; j++) {
                covered[i][j] = new boolean[sizes[i] * sizes[j]];
                uncovered += sizes[i] * sizes[j];
            }
        }
        List<int[]> rows = new ArrayList<>();
        if (k == 1) {
            for (int a = 0; a < sizes[0]; a++) {
                rows.add(new int[]{a});
            }
            return rows;
        }
        while (uncovered > 0) {
            int[] row = new int[k];
            java.util.Arrays.fill(row, -1);
            seed(covered, sizes, row);
            for (int i = 0; i < k; i++) {
                if (row[i] >= 0) {
                    continue;
                }
                int best = 0;
                int bestGain = -1;
                for (int c = 0; c < sizes[i]; c++) {
                    int gain = 0;
                    for (int j = 0; j < k; j++) {
                        if (j != i && row[j] >= 0 && !isCovered(covered, sizes, i, c, j, row[j])) {
                            gain++;
                        }
                    }
                    if (gain > bestGain) {
                        best = c;
                        bestGain = gain;
                    }
                }
                row[i] = best;
            }
            for (int i = 0; i < k; i++) {
                for (int j = i + 1; j < k; j++) {
                    int at = row[i] * sizes[j] + row[j];
                    if (!covered[i][j][at]) {
                        covered[i][j][at] = true;
                        uncovered--;
                    }
                }
            }
            rows.add(row);
        }
        return rows;
    }

    /** Puts the first uncovered pair into the row. */
    private static void seed(boolean[][][] covered, int[] sizes, int[] row) {
        for (int i = 0; i < sizes.length; i++) {
            for (int j = i + 1; j < sizes.length; j++) {
                for (int at = 0; at < covered[i][j].length; at++) {
                    if (!covered[i][j][at]) {
                        row[i] = at / sizes[j];
                        row[j] = at % sizes[j];
                        return;
                    }
                }
            }
        }
    }

    private static boolean isCovered(boolean[][][] covered, int[] sizes, int i, int a, int j, int b) {
        return i < j ? covered[i][j][a * sizes[j] + b] : covered[j][i][b * sizes[i] + a];
    }
}
