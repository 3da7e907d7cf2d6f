package org.ndktck.tck.sections;

import org.ndktck.tck.properties.AdapterInfoProperties;
import org.ndktck.tck.properties.AdapterModelChainProperties;
import org.ndktck.tck.properties.CloseProperties;
import org.ndktck.tck.properties.CqProperties;
import org.ndktck.tck.properties.DeferProperties;
import org.ndktck.tck.properties.DeregisterProperties;
import org.ndktck.tck.properties.FastRegisterInitProperties;
import org.ndktck.tck.properties.FlushProperties;
import org.ndktck.tck.properties.InvalidateProperties;
import org.ndktck.tck.properties.LamProperties;
import org.ndktck.tck.properties.MdlVirtualAddressProperties;
import org.ndktck.tck.properties.MrLifecycleStateProperties;
import org.ndktck.tck.properties.PostingProperties;
import org.ndktck.tck.properties.PrivilegedTokenProperties;
import org.ndktck.tck.properties.ReadWriteProperties;
import org.ndktck.tck.properties.RemoteInvalidationAbortProperties;
import org.ndktck.tck.properties.SendProperties;
import org.ndktck.tck.properties.InlineRequestProperties;
import org.ndktck.tck.properties.SgeProperties;
import org.ndktck.tck.properties.TokenProperties;

/** The property classes of the sections after the three seed pages (this branch's part of the kit). */
final class SectionProperties {
    private SectionProperties() {
    }

    /** @return every property class of the sections MR-DEREG to AI, MR-REG-3 / LAM-5 and the life-cycle chain */
    static Class<?>[] all() {
        return new Class<?>[]{DeregisterProperties.class, FastRegisterInitProperties.class, TokenProperties.class,
                PrivilegedTokenProperties.class, SgeProperties.class, InlineRequestProperties.class, LamProperties.class, MdlVirtualAddressProperties.class,
                InvalidateProperties.class, PostingProperties.class, ReadWriteProperties.class, FlushProperties.class,
                CqProperties.class, DeferProperties.class, CloseProperties.class, AdapterInfoProperties.class,
                MrLifecycleStateProperties.class, SendProperties.class, RemoteInvalidationAbortProperties.class,
                AdapterModelChainProperties.class};
    }
}
