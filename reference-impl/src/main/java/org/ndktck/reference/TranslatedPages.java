package org.ndktck.reference;

import java.util.Arrays;

/**
 * The one pass NdkFastRegister makes over the consumer's AdapterPageArray: it translates every entry to the
 * page frame behind it and notes, on the way, the two facts the checks MR-FR-17 and MR-FR-2 need. The checks
 * then read these facts from the {@link FastRegisterRequest} instead of walking the array again, and the new
 * registration takes the frames as its own array, so the consumer may reuse its array as soon as the call
 * returns (nothing keeps a reference to it).
 *
 * <p>An entry is translated like any logical address: the page frame of the PAGE_SIZE page of a live LAM that
 * holds it (so an entry that is not PAGE_SIZE-aligned translates to the page it lies in; only a variant that
 * replaces MR-FR-17 lets such an entry through). Translation stops at the first entry that lies in no live LAM:
 * the registration then has frames for the entries before it only, and bytes past them are backed by nothing.
 *
 * @param frames              page frame numbers of entries [0, firstUnmappedPage), or of every entry used when
 *                            {@code firstUnmappedPage} is -1; a fresh array, owned by whoever takes it
 * @param firstMisalignedPage index of the first entry that is not a multiple of PAGE_SIZE, or -1 (MR-FR-17); only
 *                            entries before the first unmapped one are read (an array with an unmapped entry fails
 *                            MR-FR-2 with the same STATUS_INVALID_PARAMETER)
 * @param firstUnmappedPage   index of the first entry whose PAGE_SIZE page lies in no live LAM of the adapter,
 *                            or -1 (MR-FR-2)
 */
record TranslatedPages(long[] frames, int firstMisalignedPage, int firstUnmappedPage) {
    /**
     * Under the adapter's lock: reads each of the first {@code count} entries of {@code pageArray} once.
     *
     * @param adapter   the adapter whose LAMs translate the entries
     * @param pageArray the consumer's AdapterPageArray (unsigned logical addresses); only read
     * @param count     entries to use, 0 ≤ count ≤ pageArray.length
     * @return the frames and the two facts
     */
    static TranslatedPages of(ReferenceAdapter adapter, long[] pageArray, int count) {
        long mask = adapter.pageSize() - 1L;
        int pageShift = Integer.numberOfTrailingZeros(adapter.pageSize());
        TranslatedPages run = ofOneRun(adapter, pageArray, count, pageShift);
        if (run != null) {
            return run;
        }
        long[] frames = new long[count];
        int firstMisaligned = -1;
        int i = 0;
        for (; i < count; i++) {
            long page = pageArray[i];
            if (firstMisaligned == -1 && (page & mask) != 0) {
                firstMisaligned = i;
            }
            // lamContaining tries the LAM of the previous entry first (the adapter's one-entry cache)
            LamMapping lam = adapter.lams.lamContaining(page);
            if (lam == null) {
                break;
            }
            frames[i] = lam.pages.frame((int) ((page - lam.base) >>> pageShift));
        }
        // i < count: entry i lies in no live LAM; the registration gets frames for the entries before it only
        return new TranslatedPages(Arrays.copyOf(frames, i), firstMisaligned, i == count ? -1 : i);
    }

    /**
     * The usual case, as NdkBuildLam hands it out: entry i is the LAM page {@code pageArray[0] + i × PAGE_SIZE},
     * with entry 0 aligned and all {@code count} pages inside one live LAM. Then every entry is aligned and
     * mapped, and the frames are a plain copy of a run of the LAM's frames.
     *
     * @return the translation, or null when the array is not such a run (the general loop then decides)
     */
    private static TranslatedPages ofOneRun(ReferenceAdapter adapter, long[] pageArray, int count, int pageShift) {
        if (count == 0) {
            return null;
        }
        long first = pageArray[0];
        LamMapping lam = lamHoldingRun(adapter, first, count, pageShift);
        long offset = first - (lam == null ? 0 : lam.base);
        if (lam == null || (offset & ((1L << pageShift) - 1)) != 0) {
            return null;
        }
        for (int i = 0; i < count; i++) {
            if (pageArray[i] != first + ((long) i << pageShift)) {
                return null;
            }
        }
        int from = (int) (offset >>> pageShift);
        return new TranslatedPages(lam.pages.framesCopy(from, from + count), -1, -1);
    }

    /**
     * @return the live LAM that holds {@code first} and the {@code count} PAGE_SIZE pages from it on, or null
     */
    private static LamMapping lamHoldingRun(ReferenceAdapter adapter, long first, int count, int pageShift) {
        LamMapping lam = adapter.lams.lamContaining(first);
        return lam != null && Long.compareUnsigned((long) count << pageShift, lam.size() - (first - lam.base)) <= 0 ? lam : null;
    }
}
