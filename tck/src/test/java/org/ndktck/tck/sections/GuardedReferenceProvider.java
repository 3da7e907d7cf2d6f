package org.ndktck.tck.sections;

import org.ndktck.spec.InvalidSettingException;
import org.ndktck.spec.NdkAdapterFactory;
import org.ndktck.spec.NdkProvider;

import java.util.Map;

/**
 * The reference provider behind the {@link ConsumerGuard}, found by class name
 * ({@code ndk.tck.provider=org.ndktck.tck.sections.GuardedReferenceProvider}); takes the reference's settings.
 */
public final class GuardedReferenceProvider implements NdkProvider {
    @Override
    public String name() {
        return "guarded-reference";
    }

    @Override
    public String description() {
        return "the reference provider behind the kit's consumer guard";
    }

    @Override
    public Map<String, String> settingDescriptions() {
        return ConsumerGuard.reference().settingDescriptions();
    }

    @Override
    public NdkAdapterFactory configure(Map<String, String> settings) throws InvalidSettingException {
        return ConsumerGuard.factory(ConsumerGuard.reference().configure(settings));
    }
}
