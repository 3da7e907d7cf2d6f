package org.ndktck.reference;

/**
 * A run of bytes of a registration or a LAM: {@code length} bytes from {@code position} (a byte offset from
 * the start of the region's first page). Built only after every check passed and {@link PageMap#backs}
 * confirmed that frames back every byte.
 */
record Span(PageMap map, long position, long length) {
}
