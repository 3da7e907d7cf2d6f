package org.ndktck.reference;

/**
 * Data-path piece {@code fr-page-table}: which page frames an accepted NdkFastRegister keeps in the MR's page
 * table. The reference keeps every frame the AdapterPageArray named (AdapterPageCount of them, already translated);
 * a variant that models a device whose page table was sized by NdkInitializeFastRegisterMr keeps only that many, so
 * an accepted registration of more pages (MR-FR-18) reaches, past its last kept frame, whatever piece
 * {@code frame-reach} names. Called with the adapter's lock held: must not block.
 */
@FunctionalInterface
public interface FrPageTable {
    /**
     * @param frames               the registration's page frame numbers, in AdapterPageArray order (not to be changed)
     * @param initializedPageCount the AdapterPageCount the MR was initialized with (NdkInitializeFastRegisterMr; a
     *                             ULONG, at most FRMRPageCount, so a non-negative int here)
     * @return the frames the registration keeps (the array itself, or a new one)
     */
    long[] kept(long[] frames, int initializedPageCount);
}
