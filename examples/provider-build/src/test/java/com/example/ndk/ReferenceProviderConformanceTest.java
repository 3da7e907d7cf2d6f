package com.example.ndk;

import org.junit.platform.suite.api.ConfigurationParameter;
import org.junit.platform.suite.api.IncludeClassNamePatterns;
import org.junit.platform.suite.api.SelectPackages;
import org.junit.platform.suite.api.Suite;
import org.junit.platform.suite.api.SuiteDisplayName;

/**
 * Runs the whole NDK conformance kit against a provider, as part of {@code mvn verify}.
 *
 * <p>A provider author copies this class and changes {@code ndk.tck.provider} to the short name their
 * provider registers (or its class name). Provider settings go in {@code ndk.tck.set.<KEY>} parameters; the
 * profile, tries, seed and timeout factor in {@code ndk.tck.profile}, {@code ndk.tck.tries},
 * {@code ndk.tck.seed} and {@code ndk.tck.timeoutFactor} (here they come from system properties set in the POM,
 * so {@code -Dndk.tck.profile=standard} works on the command line). Each property is a test named after its
 * method; a failure's message starts with the rule and its strength ({@code [MR-FR-4] MUST: ...}) and gives the
 * seed. The kit prints the run seed once when the tests start; {@code mvn verify -Dndk.tck.seed=N} replays it.
 */
@Suite
@SuiteDisplayName("NDK conformance kit against the reference provider")
@SelectPackages("org.ndktck.tck.properties")
// the kit's property classes are named *Properties, which the suite's default class name pattern (*Test) skips
@IncludeClassNamePatterns(".*")
@ConfigurationParameter(key = "ndk.tck.provider", value = "reference")
@ConfigurationParameter(key = "ndk.tck.set.completion", value = "pending")
@ConfigurationParameter(key = "jqwik.database", value = "target/jqwik-database")
class ReferenceProviderConformanceTest {
}
