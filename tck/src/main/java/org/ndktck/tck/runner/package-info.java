/**
 * The kit's command-line runner ({@code ./ndk-tck}, main class {@link org.ndktck.tck.runner.NdkTckCommand}):
 * {@code run}, {@code rules}, {@code explain}, {@code merge}, {@code providers}, {@code init} and {@code selftest},
 * built on picocli. {@code providers} lists the providers a run can name and, with {@code --settings}, each
 * setting's values and default; {@code init} writes a provider skeleton project (sources, pom, README and
 * {@code .gitignore}); {@code selftest} runs the kit against every {@code fault:*} and {@code legal:*} provider.
 *
 * <p>A run happens in-process: {@link org.ndktck.tck.runner.KitRunner} validates the options (every usage
 * or setup error is a {@link org.ndktck.tck.runner.UsageException}: exit 2, one line, a hint), discovers the
 * kit's properties in {@code org.ndktck.tck.properties} on the JUnit Platform, selects rules by
 * {@code --rules}, {@code --shard} and the exclusions file, and {@link org.ndktck.tck.runner.KitExecution}
 * runs them through the JUnit Platform launcher with a tag filter, the kit's configuration parameters
 * ({@code ndk.tck.*}) and the provider loader as context class loader, watching each property against a
 * time bound. {@link org.ndktck.tck.runner.Verdicts} turns the kit's {@code RunLedger} into one verdict per
 * catalog rule, and {@link org.ndktck.tck.report} writes the reports. {@link org.ndktck.tck.runner.RunHeader}
 * prints the run's configuration header and {@link org.ndktck.tck.runner.RunReportAssembly} builds its report from
 * the outcomes.
 *
 * <p>Choices recorded here: {@code --shard I/N} is 1-based and deals rules round-robin in catalog order
 * (rules with properties first); a rule outside the selection is {@code selected=false} in the report and
 * keeps a FAIL or ADVISORY that another rule's property reported, so a merge of shards equals the unsharded
 * run; an exclusion holds through its expiry date; a property the runner abandons (default bound 300 s, 3000 s
 * for the deep profile, times the timeout factor) fails its rules; exit code 3 is an internal error of the kit.
 */
package org.ndktck.tck.runner;
