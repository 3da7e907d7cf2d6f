package org.ndktck.spec.rules;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Each structural check of {@link RuleCatalogValidator} catches the breakage it is for. */
class RuleCatalogValidatorTest {

    private static final Ambiguity AMB = new Ambiguity("AMB-1", "t", "a", "b", List.of("D:x"), "c");

    private static Rule rule(String id) {
        return new Rule(id, "title", "NdkRegisterMr", "NdkRegisterMr", Binds.PROVIDER, Strength.MUST, Basis.STATED,
                Check.PROVIDER_PROPERTY, "statement", "how it is checked", List.of("STATUS_SUCCESS"), "D:register_mr",
                List.of("AMB-1"), List.of("ADAPTER_FLAG:RDMA_READ_SINK_NOT_REQUIRED", "NDK_VERSION:1.2"));
    }

    private static List<String> problemsOf(Rule... rules) {
        return RuleCatalogValidator.problems(RuleCatalog.of(List.of(rules), List.of(AMB)));
    }

    @Test
    void aCorrectCatalogHasNoProblems() {
        assertThat(problemsOf(rule("MR-REG-1"), rule("LAM-REL-1"))).isEmpty();
    }

    @Test
    void malformedAndDuplicateIdsAreReported() {
        assertThat(problemsOf(rule("mr-reg-1"))).singleElement().asString().contains("does not match");
        assertThat(problemsOf(rule("MR-REG"))).singleElement().asString().contains("does not match");
        assertThat(problemsOf(rule("MR-REG-1a"))).singleElement().asString().contains("does not match");
        assertThat(problemsOf(rule("MR-REG-1"), rule("MR-REG-1"))).singleElement().asString().contains("duplicate");
    }

    @Test
    void blankFieldsAreReported() {
        Rule r = rule("MR-REG-1");
        Rule blankHow = new Rule(r.id(), r.title(), r.function(), r.group(), r.binds(), r.strength(), r.basis(),
                r.check(), r.statement(), "  ", r.allowedStatuses(), r.source(), r.ambiguities(), r.requires());
        assertThat(problemsOf(blankHow)).singleElement().asString().contains("howChecked is blank");
        Rule noStrength = new Rule(r.id(), r.title(), r.function(), r.group(), r.binds(), null, r.basis(),
                r.check(), r.statement(), r.howChecked(), r.allowedStatuses(), r.source(), r.ambiguities(), r.requires());
        assertThat(problemsOf(noStrength)).singleElement().asString().contains("strength is missing");
    }

    @Test
    void unknownStatusesAmbiguitiesAndRequirementsAreReported() {
        Rule r = rule("MR-REG-1");
        Rule bad = new Rule(r.id(), r.title(), r.function(), r.group(), r.binds(), r.strength(), r.basis(), r.check(),
                r.statement(), r.howChecked(), List.of("STATUS_NOPE"), r.source(), List.of("AMB-99"),
                List.of("ADAPTER_FLAG:NO_SUCH_FLAG", "NDK_VERSION:1", "CAPABILITY:X"));
        assertThat(problemsOf(bad)).hasSize(5)
                .anyMatch(p -> p.contains("STATUS_NOPE"))
                .anyMatch(p -> p.contains("AMB-99"))
                .anyMatch(p -> p.contains("NO_SUCH_FLAG"))
                .anyMatch(p -> p.contains("'NDK_VERSION:1'"))
                .anyMatch(p -> p.contains("CAPABILITY:X"));
    }

    @Test
    void checkAndBindsMustAgree() {
        Rule r = rule("MR-REG-1");
        Rule consumerProperty = new Rule(r.id(), r.title(), r.function(), r.group(), Binds.CONSUMER, r.strength(),
                r.basis(), Check.PROVIDER_PROPERTY, r.statement(), r.howChecked(), r.allowedStatuses(), r.source(),
                r.ambiguities(), r.requires());
        assertThat(problemsOf(consumerProperty)).singleElement().asString().contains("PROVIDER_PROPERTY");
        Rule providerObligation = new Rule(r.id(), r.title(), r.function(), r.group(), Binds.PROVIDER, r.strength(),
                r.basis(), Check.CONSUMER_OBLIGATION, r.statement(), r.howChecked(), r.allowedStatuses(), r.source(),
                r.ambiguities(), r.requires());
        assertThat(problemsOf(providerObligation)).singleElement().asString().contains("CONSUMER_OBLIGATION");
    }

    @Test
    void aGroupSplitInTwoIsReported() {
        Rule a = rule("MR-REG-1");
        Rule b = new Rule("LAM-1", a.title(), a.function(), "NdkBuildLam", a.binds(), a.strength(), a.basis(),
                a.check(), a.statement(), a.howChecked(), a.allowedStatuses(), a.source(), a.ambiguities(), a.requires());
        assertThat(problemsOf(a, b, rule("MR-REG-2"))).singleElement().asString().contains("appears again");
    }

    @Test
    void brokenAmbiguitiesAreReported() {
        Ambiguity bad = new Ambiguity("AMBIGUITY-2", "t", " ", "b", List.of(), "c");
        List<String> problems = RuleCatalogValidator.problems(RuleCatalog.of(List.of(), List.of(AMB, bad, AMB)));
        assertThat(problems).hasSize(4)
                .anyMatch(p -> p.contains("AMB-n"))
                .anyMatch(p -> p.contains("readingA is blank"))
                .anyMatch(p -> p.contains("sources"))
                .anyMatch(p -> p.contains("duplicate"));
    }
}
