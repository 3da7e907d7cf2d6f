package org.ndktck.reference;

import org.ndktck.spec.Mdl;

/**
 * An NdkRegisterMr call as the checks of {@link Pieces#REGISTER_MR} see it.
 *
 * @param adapter the adapter
 * @param mr      the MR the call was made on
 * @param mdl     the first MDL of the chain
 * @param chain   the one-pass summary of the chain over {@code length}
 * @param length  Length in bytes (SIZE_T in a long, unsigned)
 * @param flags   NDK_MR_FLAG_* bits (ULONG in an int)
 */
public record RegisterMrRequest(AdapterView adapter, MrView mr, Mdl mdl, MdlChainSummary chain, long length,
                                int flags) {
}
