package org.ndktck.commands;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs one command line with bash, as a user types it, and keeps what it printed. */
final class Shell {
    private Shell() {
    }

    /** The kit's checkout, where README's commands run. */
    static final Path KIT = Path.of(System.getProperty("ndk.kit.root", "../..")).toAbsolutePath().normalize();

    /** {@code mvn}, offline when the build running these tests is (Maven's launcher hands its arguments on in MAVEN_CMD_LINE_ARGS). */
    static final String MVN = "mvn" + (offline(System.getenv("MAVEN_CMD_LINE_ARGS")) ? " -o" : "");

    static boolean offline(String args) {
        return args != null && (" " + args + " ").matches(".*\\s(-o|--offline)\\s.*");
    }

    /**
     * @param code exit code
     * @param out  standard output
     * @param err  standard error
     */
    record Result(int code, String out, String err) {
        @Override
        public String toString() {
            return "exit " + code + "\n--- stdout\n" + out + "\n--- stderr\n" + err;
        }
    }

    /**
     * @param dir     the working directory
     * @param env     variables added to this JVM's environment
     * @param command the command line
     * @param minutes how long it may take
     * @return what it did
     */
    static Result run(Path dir, Map<String, String> env, String command, int minutes) throws IOException, InterruptedException {
        Path out = Files.createTempFile("cmd", ".out");
        Path err = Files.createTempFile("cmd", ".err");
        try {
            ProcessBuilder pb = new ProcessBuilder("bash", "-c", command).directory(dir.toFile())
                    .redirectOutput(out.toFile()).redirectError(err.toFile()).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
            pb.environment().putAll(env);
            Process p = pb.start();
            if (!p.waitFor(minutes, TimeUnit.MINUTES)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                throw new AssertionError("did not end within " + minutes + " minutes: " + command);
            }
            return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    static Result run(Path dir, String command) throws IOException, InterruptedException {
        return run(dir, Map.of(), command, 5);
    }
}
