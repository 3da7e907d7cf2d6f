package org.ndktck.tck.sections;

import org.ndktck.faults.Variants;
import org.ndktck.spec.InvalidSettingException;
import org.ndktck.spec.NdkAdapterFactory;
import org.ndktck.spec.NdkProvider;

import java.util.Map;

/**
 * The reference provider behind the {@link ConsumerGuard}: each adapter it opens is the reference's, wrapped in
 * the fault catalogue's {@link org.ndktck.faults.ForwardingAdapter} with a fresh guard as its hooks
 * ({@link Variants#wrapped}). Found by class name
 * ({@code ndk.tck.provider=org.ndktck.tck.sections.GuardedReferenceProvider}); takes the reference's settings.
 */
public final class GuardedReferenceProvider implements NdkProvider {
    private static final NdkProvider GUARDED = Variants.wrapped("guarded-reference",
            "the reference provider behind the kit's consumer guard", ConsumerGuard::forOpenedAdapter);

    @Override
    public String name() {
        return GUARDED.name();
    }

    @Override
    public String description() {
        return GUARDED.description();
    }

    @Override
    public Map<String, String> settingDescriptions() {
        return GUARDED.settingDescriptions();
    }

    @Override
    public NdkAdapterFactory configure(Map<String, String> settings) throws InvalidSettingException {
        return GUARDED.configure(settings);
    }
}
