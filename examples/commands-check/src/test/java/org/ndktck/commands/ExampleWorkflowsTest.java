package org.ndktck.commands;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The CI examples of {@code examples/ci/} run as far as they can without a CI service: every {@code run:} step of
 * every job, in the kit's checkout (which the workflows check out first), with the workflow's and the job's
 * {@code env} and {@code PROFILE=smoke}; a matrix job runs once per matrix value, before the jobs that need it; a
 * {@code uses:} step (checkout, setup-java, artifacts) is the CI service's and is left out, since every job here
 * shares one directory. Each step must exit 0, and the reports the workflow keeps must be there.
 */
class ExampleWorkflowsTest {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    @ParameterizedTest
    @ValueSource(strings = {"command-line.yml", "c-provider.yml", "sharded.yml"})
    void everyRunStepOfTheWorkflowWorks(String file) throws Exception {
        JsonNode wf = YAML.readTree(Shell.KIT.resolve("examples/ci").resolve(file).toFile());
        Map<String, String> env = new LinkedHashMap<>(env(wf.get("env")));
        for (Iterator<Map.Entry<String, JsonNode>> jobs = wf.get("jobs").fields(); jobs.hasNext(); ) {
            Map.Entry<String, JsonNode> job = jobs.next();
            Map<String, String> jobEnv = new LinkedHashMap<>(env);
            jobEnv.putAll(env(job.getValue().get("env")));
            jobEnv.put("PROFILE", "smoke");
            for (Map<String, String> matrix : matrix(job.getValue())) {
                for (JsonNode step : job.getValue().get("steps")) {
                    if (!step.has("run")) {
                        continue;
                    }
                    String command = step.get("run").asText();
                    for (Map.Entry<String, String> m : matrix.entrySet()) {
                        command = command.replace("${{ matrix." + m.getKey() + " }}", m.getValue());
                    }
                    assertThat(command).as("an expression only a CI service can fill").doesNotContain("${{");
                    Shell.Result r = Shell.run(Shell.KIT, jobEnv, command, 10);
                    assertThat(r.code()).as(file + " " + job.getKey() + " " + matrix + ": " + command + "\n" + r).isZero();
                }
            }
        }
        for (JsonNode job : wf.get("jobs")) {
            for (JsonNode step : job.get("steps")) {
                if (step.path("uses").asText().startsWith("actions/upload-artifact") && !step.path("with").path("path").asText().contains("${{")) {
                    Path kept = Shell.KIT.resolve(step.get("with").get("path").asText());
                    assertThat(kept.resolve("report.json")).as("the report the workflow keeps").exists();
                }
            }
        }
        if (file.equals("sharded.yml")) {
            JsonNode merged = new ObjectMapper().readTree(Shell.KIT.resolve("target/ndk-tck-ci/merged/report.json").toFile());
            assertThat(merged.get("mergedShards")).hasSize(3);
            assertThat(merged.get("seedText").asText()).isEqualTo("7");
        }
    }

    private static Map<String, String> env(JsonNode env) {
        Map<String, String> out = new LinkedHashMap<>();
        if (env != null) {
            env.fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue().asText()));
        }
        return out;
    }

    /** @return one map per matrix combination (one key only, as the examples use), or one empty map */
    private static List<Map<String, String>> matrix(JsonNode job) {
        JsonNode m = job.path("strategy").path("matrix");
        List<Map<String, String>> out = new ArrayList<>();
        if (m.isMissingNode() || m.size() == 0) {
            out.add(Map.of());
            return out;
        }
        assertThat(m.size()).as("the examples' matrices have one key").isEqualTo(1);
        Map.Entry<String, JsonNode> only = m.fields().next();
        only.getValue().forEach(v -> out.add(Map.of(only.getKey(), v.asText())));
        return out;
    }

    static boolean exists(Path p) {
        return Files.exists(p);
    }
}
