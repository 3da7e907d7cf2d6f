package org.ndktck.tck.runner;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * One shard of a run, {@code --shard I/N}: shard {@code index} (1-based) of {@code count}. The split is
 * deterministic and depends only on the rule IDs: the selected rules that have properties are dealt
 * round-robin in catalog order, then the rules without properties the same way, so every shard gets a
 * fair share of the work and the same rule always lands in the same shard of the same kit version.
 *
 * @param index 1-based shard number, 1 ≤ index ≤ count
 * @param count number of shards, ≥ 1
 */
public record Shard(int index, int count) {

    /** Validates the bounds. */
    public Shard {
        if (count < 1 || index < 1 || index > count) {
            throw new IllegalArgumentException("shard must be I/N with 1 <= I <= N, got " + index + "/" + count);
        }
    }

    /**
     * @param text {@code I/N}, e.g. {@code 2/4}
     * @return the shard
     * @throws UsageException when the text is not of that form or out of bounds
     */
    public static Shard parse(String text) {
        String t = text == null ? "" : text.trim();
        int slash = t.indexOf('/');
        try {
            if (slash < 0) {
                throw new NumberFormatException();
            }
            return new Shard(Integer.parseInt(t.substring(0, slash).trim()), Integer.parseInt(t.substring(slash + 1).trim()));
        } catch (NumberFormatException e) {
            throw new UsageException("bad --shard '" + text + "': expected I/N such as 1/4", "shards are numbered from 1 to N");
        } catch (IllegalArgumentException e) {
            throw new UsageException("bad --shard '" + text + "': " + e.getMessage(), "shards are numbered from 1 to N");
        }
    }

    /**
     * @param rulesInCatalogOrder the selected rule IDs, in catalog order
     * @param hasProperty         the subset of rules the kit has properties for
     * @return the rules of this shard, in catalog order
     */
    public Set<String> select(List<String> rulesInCatalogOrder, Set<String> hasProperty) {
        List<String> withProps = new ArrayList<>();
        List<String> without = new ArrayList<>();
        for (String id : rulesInCatalogOrder) {
            (hasProperty.contains(id) ? withProps : without).add(id);
        }
        Set<String> mine = new LinkedHashSet<>();
        for (int i = 0; i < withProps.size(); i++) {
            if (i % count == index - 1) {
                mine.add(withProps.get(i));
            }
        }
        for (int i = 0; i < without.size(); i++) {
            if ((i + withProps.size()) % count == index - 1) {
                mine.add(without.get(i));
            }
        }
        Set<String> ordered = new LinkedHashSet<>();
        for (String id : rulesInCatalogOrder) {
            if (mine.contains(id)) {
                ordered.add(id);
            }
        }
        return ordered;
    }

    @Override
    public String toString() {
        return index + "/" + count;
    }
}
