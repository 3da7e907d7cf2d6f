package org.ndktck.tck.runner;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code ndk-tck}: the command line of the NDK memory-region conformance kit (the main class of
 * {@code cli/target/ndk-tck.jar}, which {@code ./ndk-tck} runs). Subcommands: {@code run}, {@code rules},
 * {@code explain}, {@code merge}, {@code selftest}.
 *
 * <p>Exit codes: 0 no rule failed; 1 a rule failed (or ADVISORY under {@code --strict}, or a selftest
 * fault was not caught); 2 a usage or setup error, reported on one line of standard error with a hint,
 * never a stack trace; 3 an internal error of the kit itself.
 */
@Command(name = "ndk-tck", mixinStandardHelpOptions = true, versionProvider = NdkTckCommand.Version.class,
        subcommands = {RunCommand.class, RulesCommand.class, ExplainCommand.class, MergeCommand.class, ProvidersCommand.class, InitCommand.class,
                SelftestCommand.class, CommandLine.HelpCommand.class},
        description = {"Conformance test kit for the memory-region part of NDKPI (NdkCreateMr, NdkRegisterMr, "
                + "NdkFastRegister and the pages they lean on).", ""},
        footer = {"", "Exit codes: 0 conformant, 1 a rule failed, 2 usage or setup error, 3 internal error.",
                "Start with: ./ndk-tck run   (runs the kit against the reference provider)"})
public final class NdkTckCommand implements Callable<Integer> {
    /** Exit code: no rule failed. */
    public static final int OK = 0;
    /** Exit code: a rule failed. */
    public static final int FAILED = 1;
    /** Exit code: usage or setup error. */
    public static final int USAGE = 2;
    /** Exit code: internal error of the kit. */
    public static final int INTERNAL = 3;

    /** Held so the level set in {@link #main} stays (java.util.logging keeps loggers weakly). */
    private static final java.util.logging.Logger JQWIK_LOG = java.util.logging.Logger.getLogger("net.jqwik");

    @Spec
    CommandSpec spec;

    final PrintStream out;
    final PrintStream err;

    NdkTckCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    @Override
    public Integer call() {
        err.println("ndk-tck: a command is required: run, rules, explain, merge, providers, init or selftest (hint: ./ndk-tck --help)");
        return USAGE;
    }

    /**
     * Runs the command line and exits the JVM with its exit code, even when a provider thread is stuck.
     *
     * @param args the arguments
     */
    public static void main(String[] args) {
        // jqwik logs INFO lines (edge cases outnumbering tries) through java.util.logging onto the console;
        // the runner's own output says what matters. Warnings still show.
        JQWIK_LOG.setLevel(java.util.logging.Level.WARNING);
        int code;
        try {
            code = execute(args, System.out, System.err);
        } catch (Throwable t) {
            System.err.println("ndk-tck: internal error: " + t);
            code = INTERNAL;
        }
        System.out.flush();
        System.err.flush();
        System.exit(code);
    }

    /**
     * Runs the command line without exiting the JVM (for tests and embedding).
     *
     * @param args the arguments
     * @param out  standard output
     * @param err  standard error
     * @return the exit code
     */
    public static int execute(String[] args, PrintStream out, PrintStream err) {
        CommandLine cl = new CommandLine(new NdkTckCommand(out, err));
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        cl.setOut(new PrintWriter(out, true, StandardCharsets.UTF_8));
        cl.setErr(new PrintWriter(err, true, StandardCharsets.UTF_8));
        cl.setParameterExceptionHandler((ex, a) -> {
            String cmd = ex.getCommandLine().getCommandName();
            String prefix = cmd.equals("ndk-tck") ? "ndk-tck" : "ndk-tck " + cmd;
            String hint = "./" + prefix.replace("ndk-tck ", "ndk-tck ") + " --help lists the options";
            String message = UsageException.oneLine(ex.getMessage());
            if (ex instanceof CommandLine.UnmatchedArgumentException u) {
                List<String> suggestions = u.getSuggestions();
                String word = u.getUnmatched().isEmpty() ? "" : u.getUnmatched().get(0);
                if (cmd.equals("ndk-tck") && !word.startsWith("-")) {
                    // a mistyped command: the commands a letter or two away, or that start with what was typed
                    suggestions = CommandSuggestions.near(word, ex.getCommandLine().getSubcommands().keySet());
                    message = "unknown command '" + word + "'";
                    hint = "./ndk-tck --help lists the commands";
                }
                if (!suggestions.isEmpty()) {
                    hint = "did you mean " + String.join(" or ", suggestions) + "? " + hint;
                }
            }
            err.println(prefix + ": " + message + " (hint: " + hint + ")");
            return USAGE;
        });
        cl.setExecutionExceptionHandler((ex, c, parseResult) -> {
            if (ex instanceof UsageException u) {
                err.println("ndk-tck " + c.getCommandName() + ": " + u.line());
                return USAGE;
            }
            err.println("ndk-tck " + c.getCommandName() + ": internal error: " + UsageException.oneLine(String.valueOf(ex))
                    + " (hint: please report this with the command line; " + where(ex) + ")");
            return INTERNAL;
        });
        return cl.execute(args);
    }

    private static String where(Throwable ex) {
        StackTraceElement[] st = ex.getStackTrace();
        return st.length == 0 ? "no stack" : "at " + st[0];
    }

    /** The kit's version for {@code --version}. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return List.of("ndk-tck " + KitVersion.get(), "Java " + System.getProperty("java.version")).toArray(String[]::new);
        }
    }
}
