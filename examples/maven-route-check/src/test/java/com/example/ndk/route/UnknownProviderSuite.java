package com.example.ndk.route;

import org.junit.platform.suite.api.ConfigurationParameter;
import org.junit.platform.suite.api.IncludeClassNamePatterns;
import org.junit.platform.suite.api.IncludeTags;
import org.junit.platform.suite.api.SelectPackages;
import org.junit.platform.suite.api.Suite;

/** Names a provider that no services file registers: the build fails with one setup error. */
@Suite
@SelectPackages("org.ndktck.tck.properties")
@IncludeClassNamePatterns(".*")
@IncludeTags({"MR-FR-4", "MR-TOK-2"})
@ConfigurationParameter(key = "ndk.tck.provider", value = "no-such-provider")
@ConfigurationParameter(key = "ndk.tck.printSeed", value = "false")
@ConfigurationParameter(key = "jqwik.database", value = "target/jqwik-database")
class UnknownProviderSuite {
}
