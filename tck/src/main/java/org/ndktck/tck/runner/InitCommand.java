package org.ndktck.tck.runner;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * {@code ndk-tck init DIR}: writes a provider skeleton that compiles against the kit's SPI and a Maven build that
 * runs the kit on it. The files come from templates in {@code org/ndktck/tck/init/} with the provider's name,
 * Java package, class prefix, Maven coordinates and the kit's version filled in; every SPI method of the skeleton
 * returns STATUS_NOT_IMPLEMENTED (or 0, or nothing), so the kit runs on it and FAILs what it can check.
 * DIR must be missing or empty; a bad name or package is a usage error (exit 2).
 */
@Command(name = "init", mixinStandardHelpOptions = true, versionProvider = NdkTckCommand.Version.class,
        description = {"Writes a provider skeleton (every SPI call returns STATUS_NOT_IMPLEMENTED), its services file, "
                + "a POM that runs the kit on it, a @Suite class, a GitHub Actions workflow and a README into DIR.", ""},
        footer = {"", "Then: cd DIR && mvn -B verify   (after the kit is installed: mvn -B -DskipTests install at the kit's root)"})
public final class InitCommand implements Callable<Integer> {
    private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9]*(-[a-z0-9]+)*");
    private static final Pattern PACKAGE = Pattern.compile("[a-z][a-z0-9_]*(\\.[a-z][a-z0-9_]*)*");
    private static final String TEMPLATES = "/org/ndktck/tck/init/";

    @ParentCommand
    NdkTckCommand parent;

    @Parameters(paramLabel = "DIR", description = "The directory to write the project into (missing or empty).")
    Path dir;

    @Option(names = "--name", paramLabel = "NAME", description = "The provider's name (NdkProvider.name(), what --provider takes): "
            + "lower-case words joined by '-'. Default: ${DEFAULT-VALUE}.")
    String name = "my-ndk";

    @Option(names = "--package", paramLabel = "PKG", description = "The Java package of the provider. Default: ${DEFAULT-VALUE}.")
    String javaPackage = "com.example.ndk";

    @Option(names = "--group-id", paramLabel = "G", description = "The Maven groupId of the project. Default: the package.")
    String groupId;

    /** One file of the project: where it goes and the template it comes from. */
    record Output(String path, String template) {
    }

    /**
     * @param prefix      the class-name prefix
     * @param packagePath the package as a path
     * @return the project's files, in the order they are written
     */
    static List<Output> outputs(String prefix, String packagePath) {
        String main = "src/main/java/" + packagePath + "/";
        return List.of(
                new Output("pom.xml", "pom.xml.template"),
                new Output(main + prefix + "Provider.java", "Provider.java.template"),
                new Output(main + prefix + "Adapter.java", "Adapter.java.template"),
                new Output(main + prefix + "Pd.java", "Pd.java.template"),
                new Output(main + prefix + "Mr.java", "Mr.java.template"),
                new Output(main + prefix + "Qp.java", "Qp.java.template"),
                new Output(main + prefix + "Cq.java", "Cq.java.template"),
                new Output("src/main/resources/META-INF/services/org.ndktck.spec.NdkProvider", "services.template"),
                new Output("src/test/java/" + packagePath + "/" + prefix + "ConformanceTest.java", "ConformanceTest.java.template"),
                new Output(".github/workflows/ndk-tck.yml", "workflow.yml.template"),
                new Output("README.md", "README.md.template"),
                new Output(".gitignore", "gitignore.template"));
    }

    /** @param name a provider name such as {@code acme-rnic} @return its class prefix, {@code AcmeRnic} */
    static String prefix(String name) {
        StringBuilder b = new StringBuilder();
        for (String w : name.split("-")) {
            b.append(Character.toUpperCase(w.charAt(0))).append(w.substring(1));
        }
        return Character.isDigit(b.charAt(0)) ? "P" + b : b.toString();
    }

    /** @return the kit version the skeleton's POM names (the build writes it into {@code kit.properties}) */
    static String kitVersion() {
        try (InputStream in = InitCommand.class.getResourceAsStream(TEMPLATES + "kit.properties")) {
            if (in != null) {
                Properties p = new Properties();
                p.load(in);
                String v = p.getProperty("version", "");
                if (!v.isBlank() && !v.contains("${")) {
                    return v;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return KitVersion.get();
    }

    @Override
    public Integer call() throws IOException {
        if (!NAME.matcher(name).matches()) {
            throw new UsageException("bad --name '" + name + "': lower-case letters and digits, words joined by '-'", "e.g. --name acme-rnic");
        }
        if (!PACKAGE.matcher(javaPackage).matches()) {
            throw new UsageException("bad --package '" + javaPackage + "': a Java package name in lower case", "e.g. --package com.acme.ndk");
        }
        if (Files.exists(dir) && (!Files.isDirectory(dir) || !isEmpty(dir))) {
            throw new UsageException(dir + " exists and is not an empty directory", "name a new directory");
        }
        String prefix = prefix(name);
        String packagePath = javaPackage.replace('.', '/');
        Map<String, String> values = new LinkedHashMap<>();
        values.put("@PACKAGE_PATH@", packagePath);
        values.put("@PACKAGE@", javaPackage);
        values.put("@PREFIX@", prefix);
        values.put("@NAME@", name);
        values.put("@GROUP@", groupId == null ? javaPackage : groupId);
        values.put("@ARTIFACT@", name.toLowerCase(Locale.ROOT));
        values.put("@VERSION@", kitVersion());
        values.put("@KIT_ROOT@", kitRoot());
        for (Output o : outputs(prefix, packagePath)) {
            String text = template(o.template());
            for (Map.Entry<String, String> e : values.entrySet()) {
                text = text.replace(e.getKey(), e.getValue());
            }
            Path target = dir.resolve(o.path());
            try {
                Files.createDirectories(target.getParent());
                Files.writeString(target, text, StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UsageException("cannot write " + target + ": " + e, "name a directory you can write to");
            }
        }
        parent.out.println("ndk-tck init: wrote provider '" + name + "' (" + javaPackage + "." + prefix + "Provider) to " + dir);
        parent.out.println("  compile against org.ndktck:ndk-spec:" + values.get("@VERSION@") + "; the kit org.ndktck:ndk-tck:"
                + values.get("@VERSION@") + " runs on it in the test phase");
        parent.out.println("  next: install the kit (mvn -B -DskipTests install at the kit's root), then cd " + dir + " && mvn -B verify");
        return NdkTckCommand.OK;
    }

    /**
     * @return the kit's checkout this command runs from (the directory holding {@code ./ndk-tck}, when the command runs
     *     from its {@code cli/target/ndk-tck.jar}), so the generated README's commands work as written; else a
     *     placeholder the README explains
     */
    static String kitRoot() {
        try {
            java.security.CodeSource src = InitCommand.class.getProtectionDomain().getCodeSource();
            if (src != null && src.getLocation() != null) {
                Path jar = Path.of(src.getLocation().toURI());
                Path root = jar.getParent() == null || jar.getParent().getParent() == null ? null : jar.getParent().getParent().getParent();
                if (root != null && Files.isRegularFile(root.resolve("ndk-tck")) && Files.isDirectory(root.resolve("cli"))) {
                    return root.toString();
                }
            }
        } catch (java.net.URISyntaxException | RuntimeException e) {
            // the placeholder
        }
        return "/path/to/ndk-tck";
    }

    private static boolean isEmpty(Path d) throws IOException {
        try (Stream<Path> s = Files.list(d)) {
            return s.findAny().isEmpty();
        }
    }

    private static String template(String file) throws IOException {
        try (InputStream in = InitCommand.class.getResourceAsStream(TEMPLATES + file)) {
            if (in == null) {
                throw new IllegalStateException("the kit jar lacks its template " + TEMPLATES + file);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
