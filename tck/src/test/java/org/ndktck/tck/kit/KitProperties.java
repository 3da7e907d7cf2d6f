package org.ndktck.tck.kit;

import org.ndktck.tck.properties.CreateMrProperties;
import org.ndktck.tck.properties.FastRegisterProperties;
import org.ndktck.tck.properties.GeneralAsyncProperties;
import org.ndktck.tck.properties.MrObjectHeaderProperties;
import org.ndktck.tck.properties.RegisterMrProperties;

/** The property classes of the seed pages and the general rules (this branch's part of the kit). */
final class KitProperties {
    private KitProperties() {
    }

    /** @return every property class of the seed pages and GEN */
    static Class<?>[] seedPages() {
        return new Class<?>[]{GeneralAsyncProperties.class, MrObjectHeaderProperties.class, CreateMrProperties.class,
                RegisterMrProperties.class, FastRegisterProperties.class};
    }
}
