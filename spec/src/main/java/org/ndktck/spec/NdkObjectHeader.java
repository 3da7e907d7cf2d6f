package org.ndktck.spec;

/**
 * NDK_OBJECT_HEADER as the consumer sees it: the version and the object type (OBJ-1, OBJ-2). The
 * NdkReserved pointers of the C header are not modelled.
 *
 * @param version    the header version (1.1 or 1.2 for the documented releases; AMB-15)
 * @param objectType the object's type, never {@link NdkObjectType#UNDEFINED}
 */
public record NdkObjectHeader(NdkVersion version, NdkObjectType objectType) {
}
