package com.example.ndk.route;

import org.junit.platform.suite.api.ConfigurationParameter;
import org.junit.platform.suite.api.IncludeClassNamePatterns;
import org.junit.platform.suite.api.IncludeTags;
import org.junit.platform.suite.api.SelectPackages;
import org.junit.platform.suite.api.Suite;

/**
 * A provider that registers an MR whose BaseVirtualAddress is not congruent with its MDL (it breaks MR-FR-4):
 * the build that runs this suite must fail, on the properties of MR-FR-4.
 */
@Suite
@SelectPackages("org.ndktck.tck.properties")
@IncludeClassNamePatterns(".*")
@IncludeTags("MR-FR-4")
@ConfigurationParameter(key = "ndk.tck.provider", value = "fault:MR-FR-4")
@ConfigurationParameter(key = "ndk.tck.profile", value = "smoke")
@ConfigurationParameter(key = "ndk.tck.printSeed", value = "false")
@ConfigurationParameter(key = "jqwik.database", value = "target/jqwik-database")
class FaultProviderSuite {
}
