package org.ndktck.tck.harness;

import org.ndktck.spec.NdkLogicalAddressMapping;

/**
 * A logical address mapping built with NdkBuildLam and checked (LAM-4).
 *
 * @param mapping the mapping object (released when the session closes)
 * @param fbo     {@code *pFBO}, the byte offset in the first page (ULONG)
 * @param count   AdapterPageCount (ULONG)
 * @param pages   AdapterPageArray (first {@code count} entries, PAGE_SIZE-aligned logical addresses)
 */
public record Lam(NdkLogicalAddressMapping mapping, int fbo, int count, long[] pages) {
}
