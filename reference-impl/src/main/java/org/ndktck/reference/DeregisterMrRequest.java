package org.ndktck.reference;

/**
 * An NdkDeregisterMr call as the checks of {@link Pieces#DEREGISTER_MR} see it.
 *
 * @param adapter the adapter
 * @param mr      the MR
 */
public record DeregisterMrRequest(AdapterView adapter, MrView mr) {
}
