package com.example.ndk.route;

import org.junit.platform.suite.api.ConfigurationParameter;
import org.junit.platform.suite.api.IncludeClassNamePatterns;
import org.junit.platform.suite.api.IncludeTags;
import org.junit.platform.suite.api.SelectPackages;
import org.junit.platform.suite.api.Suite;

/**
 * A provider that uses freedoms the NDKPI pages give (every request pends and completes on another thread) must
 * pass. Two rules, seven tries a property, a fixed seed: {@link MavenRouteTest} checks the kit used all three.
 */
@Suite
@SelectPackages("org.ndktck.tck.properties")
@IncludeClassNamePatterns(".*")
@IncludeTags({"MR-FR-4", "MR-TOK-2"})
@ConfigurationParameter(key = "ndk.tck.provider", value = "legal:foreign-thread-completion")
@ConfigurationParameter(key = "ndk.tck.seed", value = "4242")
@ConfigurationParameter(key = "ndk.tck.tries", value = "7")
@ConfigurationParameter(key = "ndk.tck.timeoutFactor", value = "3")
@ConfigurationParameter(key = "ndk.tck.printSeed", value = "false")
@ConfigurationParameter(key = "jqwik.database", value = "target/jqwik-database")
class LegalProviderSuite {
}
