package org.ndktck.tck.runner;

import org.ndktck.spec.NdkProvider;
import org.ndktck.spec.Providers;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code ndk-tck providers}: lists the providers the kit can run against (the reference, every {@code fault:*}
 * and {@code legal:*} provider, and those of {@code --provider-jar} jars), one line each: name and description.
 * A name is what {@code run --provider} and {@code selftest --faults} take.
 */
@Command(name = "providers", mixinStandardHelpOptions = true, versionProvider = NdkTckCommand.Version.class, sortOptions = false,
        description = {"Lists the providers the kit can run against: name and what it does (a fault:RULE-ID[/variant] "
                + "breaks that rule; a legal:* provider does something unusual but allowed).", ""})
public final class ProvidersCommand implements Callable<Integer> {
    @ParentCommand
    NdkTckCommand parent;

    @Option(names = "--provider-jar", paramLabel = "PATH", description = "Jar or class directory with more providers; repeatable.")
    List<Path> providerJars = new ArrayList<>();

    @Option(names = "--settings", description = "Under each provider, its settings (--set KEY=VALUE of run) with their values and default.")
    boolean settings;

    @Option(names = "--names", paramLabel = "PATTERN", split = ",",
            description = "Only providers whose names match these globs, e.g. 'fault:MR-FR-*'.")
    List<String> patterns = new ArrayList<>();

    @Override
    public Integer call() {
        ClassLoader loader = ProviderLoader.classLoader(providerJars);
        List<NdkProvider> all;
        List<String> broken;
        try {
            Providers.Listing listing = Providers.list(loader);
            all = listing.providers();
            broken = listing.errors();
        } catch (RuntimeException | LinkageError e) {
            throw new UsageException("cannot list providers: " + e, "check the --provider-jar entries and their META-INF/services files");
        }
        List<NdkProvider> chosen = all.stream().filter(p -> patterns.isEmpty()
                || patterns.stream().anyMatch(g -> RulePatterns.glob(g.trim()).matcher(p.name()).matches())).toList();
        int w = chosen.stream().mapToInt(p -> p.name().length()).max().orElse(4);
        for (NdkProvider p : chosen) {
            parent.out.printf(Locale.ROOT, "%-" + w + "s  %s%n", p.name(), p.description());
            if (settings) {
                SettingsHelp.lines(p, w + 2).forEach(parent.out::println);
            }
        }
        parent.out.println();
        parent.out.println(chosen.size() + " of " + all.size() + " providers; ./ndk-tck run --provider NAME runs the kit against one");
        for (String b : broken) {
            parent.err.println("ndk-tck providers: not loadable (left out): " + b);
        }
        return NdkTckCommand.OK;
    }
}
