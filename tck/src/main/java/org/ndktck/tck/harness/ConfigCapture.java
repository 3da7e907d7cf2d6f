package org.ndktck.tck.harness;

import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestPlan;

/**
 * Hands the JUnit Platform configuration parameters of the running test plan to {@link TckConfig}.
 * Registered as a {@code TestExecutionListener} service, so it works under Surefire, a {@code @Suite}
 * class and the kit's runner alike.
 */
public final class ConfigCapture implements TestExecutionListener {
    @Override
    public void testPlanExecutionStarted(TestPlan testPlan) {
        TckConfig.useParameters(testPlan.getConfigurationParameters()::get);
        ProviderUnderTest.reset();
        Invoker.resetRun();
        LateCallbacks.reset();
    }
}
