package org.ndktck.tck.runner;

import org.ndktck.tck.runner.testkit.ProbeProvider;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Runs the command line in-process, as the runner's tests need it. */
final class Cli {
    /** The package of the probe properties. */
    static final String PROBES = "org.ndktck.tck.runner.testkit";

    private Cli() {
    }

    /** @param code exit code @param out standard output @param err standard error */
    record Result(int code, String out, String err) {
        List<String> errLines() {
            return err.isBlank() ? List.of() : List.of(err.strip().split("\\R"));
        }
    }

    /** @return the directory registering the probe providers (added with --provider-jar) */
    static Path probeJar() {
        try {
            return Path.of(ProbeProvider.class.getProtectionDomain().getCodeSource().getLocation().toURI()).resolve("runner-providers");
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Runs the command line in-process; a {@code run} without {@code --jobs} gets {@code --jobs 1} (one JVM, as the
     * tests of single runs expect; the tests of {@code --jobs} pass it).
     */
    static Result run(String... args) {
        if (args.length > 0 && args[0].equals("run") && !List.of(args).contains("--jobs")) {
            List<String> a = new ArrayList<>(List.of(args));
            a.add(1, "--jobs");
            a.add(2, "1");
            args = a.toArray(String[]::new);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            code = NdkTckCommand.execute(args, o, e);
        }
        return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** {@code run} against the probe provider with the probe properties; more args appended. */
    static Result probeRun(Path reportDir, String... more) {
        List<String> a = new ArrayList<>(List.of("run", "--provider", "runner-probe", "--provider-jar", probeJar().toString(),
                "--kit-package", PROBES, "--report-dir", reportDir.toString(), "--progress", "plain"));
        a.addAll(List.of(more));
        return run(a.toArray(String[]::new));
    }

    /**
     * Splits a replay command printed by the runner into arguments (single-quoted words as a POSIX shell would).
     */
    static List<String> words(String command) {
        List<String> w = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        boolean inQuote = false;
        boolean any = false;
        for (int i = 0; i < command.length(); i++) {
            char c = command.charAt(i);
            if (inQuote) {
                if (c == '\'') {
                    inQuote = false;
                } else {
                    cur.append(c);
                }
            } else if (c == '\'') {
                inQuote = true;
                any = true;
            } else if (c == '\\' && i + 1 < command.length()) {
                cur.append(command.charAt(++i));
                any = true;
            } else if (Character.isWhitespace(c)) {
                if (any || cur.length() > 0) {
                    w.add(cur.toString());
                    cur.setLength(0);
                    any = false;
                }
            } else {
                cur.append(c);
            }
        }
        if (any || cur.length() > 0) {
            w.add(cur.toString());
        }
        return w;
    }
}
