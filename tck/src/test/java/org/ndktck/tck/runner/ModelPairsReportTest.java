package org.ndktck.tck.runner;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ndktck.tck.properties.AdapterModelChainProperties;
import org.ndktck.tck.report.ReportWriter;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * report.json gives, per property driven by the kit's model of the adapter, the (state, call) pairs of the model its
 * tries exercised and how often ({@code modelPairs}); a standard run against the reference reaches every pair the
 * model allows, through the CLI in one JVM and with a worker JVM ({@code --jobs 2}). RW-6 selects the adapter-model
 * chain (its only property) and CL-6 the PD chain.
 */
class ModelPairsReportTest {
    private static final String MAIN = "AdapterModelChainProperties#everyCallInEveryStateFollowsTheModel";
    private static final String PDS = "AdapterModelChainProperties#parentsAndChildrenCloseInEveryOrder";

    @TempDir
    Path tmp;

    private JsonNode run(String name, String jobs) throws IOException {
        Path dir = tmp.resolve(name);
        Cli.Result r = Cli.run("run", "--provider", "reference", "--rules", "RW-6,CL-6", "--profile", "standard", "--seed", "32",
                "--jobs", jobs, "--report-dir", dir.toString(), "--progress", "none");
        assertThat(r.code()).as(r.out() + r.err()).isZero();
        return ReportWriter.mapper().readTree(dir.resolve("report.json").toFile());
    }

    private static JsonNode property(JsonNode report, String id) {
        for (JsonNode p : report.get("properties")) {
            if (p.get("property").asText().equals(id)) {
                return p;
            }
        }
        throw new AssertionError("no property " + id + " in " + report.get("properties"));
    }

    private static void assertEveryPairReached(JsonNode report) {
        Set<String> main = check(property(report, MAIN), AdapterModelChainProperties.allowedPairs());
        assertThat(AdapterModelChainProperties.allowedPairs()).as("no pair the model does not allow").containsAll(main);
        // the PD chain also steps through QPs, LAMs and CQs: its claim is on the PD pairs
        check(property(report, PDS), AdapterModelChainProperties.allowedPdPairs());
        // a property not driven by the model reports none
        assertThat(property(report, "CloseProperties#closingAParentFirstWaitsForItsChildren").get("modelPairs").size()).isZero();
    }

    private static Set<String> check(JsonNode property, Set<String> allowed) {
        JsonNode pairs = property.get("modelPairs");
        Set<String> reached = new TreeSet<>();
        pairs.fieldNames().forEachRemaining(reached::add);
        assertThat(allowed).as("the model allows pairs").isNotEmpty();
        assertThat(reached).as(property.get("property").asText() + ": every pair the model allows, reached").containsAll(allowed);
        for (String pair : allowed) {
            assertThat(pairs.get(pair).asInt()).as(pair).isPositive();
        }
        return reached;
    }

    @Test
    void aStandardRunReportsEveryPairTheModelAllowsWithItsCount() throws IOException {
        assertEveryPairReached(run("one-jvm", "1"));
    }

    @Test
    void aWorkerJvmCarriesThePairsToTheReport() throws IOException {
        assertEveryPairReached(run("two-jobs", "2"));
    }
}
