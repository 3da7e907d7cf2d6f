package org.ndktck.nativebridge;

import org.ndktck.tck.runner.NdkTckCommand;

/**
 * The main class of {@code cli/target/ndk-tck.jar}: {@code ./ndk-tck run --provider native ...} goes through the
 * {@link CrashGuard} (the kit runs in a child process, so a crash of the C library cannot lose the run's
 * results); every other command line goes to {@link NdkTckCommand#main} unchanged.
 */
public final class NativeAwareMain {
    private NativeAwareMain() {
    }

    /**
     * @param args the command line
     */
    public static void main(String[] args) {
        if (CrashGuard.applies(args, System.getenv())) {
            int code;
            try {
                code = new CrashGuard(args, System.out, System.err).run();
            } catch (RuntimeException e) {
                System.err.println("ndk-tck run: internal error of the native crash guard: " + e);
                code = NdkTckCommand.INTERNAL;
            }
            System.out.flush();
            System.err.flush();
            System.exit(code);
        }
        NdkTckCommand.main(args);
    }
}
