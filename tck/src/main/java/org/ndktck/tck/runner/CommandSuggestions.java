package org.ndktck.tck.runner;

import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/**
 * "Did you mean" for a mistyped command of {@code ndk-tck}: the commands within two edits of what was typed (an
 * insertion, a deletion, a substitution or a swap of two neighbouring letters, so {@code rnu} finds {@code run}), or
 * that start with it, nearest first.
 */
final class CommandSuggestions {
    private CommandSuggestions() {
    }

    /** Edits at most for a suggestion. */
    static final int MAX_EDITS = 2;

    /**
     * @param typed    what the user typed in place of a command
     * @param commands the command names
     * @return the commands to suggest, nearest first (ties in name order); empty when none is near
     */
    static List<String> near(String typed, Collection<String> commands) {
        String t = typed.toLowerCase(java.util.Locale.ROOT);
        return commands.stream().filter(c -> !c.equals("help"))
                .filter(c -> distance(t, c) <= Math.min(MAX_EDITS, Math.max(1, c.length() / 2)) || t.length() >= 2 && c.startsWith(t))
                .sorted(Comparator.comparingInt((String c) -> distance(t, c)).thenComparing(c -> c))
                .toList();
    }

    /**
     * @param a a word
     * @param b another
     * @return the optimal string alignment distance: insertions, deletions, substitutions and swaps of neighbours
     */
    static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }
}
