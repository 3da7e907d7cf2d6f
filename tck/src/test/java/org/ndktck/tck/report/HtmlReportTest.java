package org.ndktck.tck.report;

import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jsoup.select.Elements;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** report.html: self-contained, a filterable table of every rule, and drawings of counterexamples. */
class HtmlReportTest {
    private static final Document DOC = Jsoup.parse(HtmlReport.render(SampleReports.sample(false)));

    @Test
    void theTableHasOneRowPerRuleWithIdStrengthVerdictTriesTimeAndMessage() {
        RunReport r = SampleReports.sample(false);
        Elements rows = DOC.select("table#rules tbody tr.rule");
        assertThat(rows).hasSize(r.rules().size());
        assertThat(DOC.select("table#rules thead th").eachText()).containsExactly("Rule", "Strength", "Verdict", "Tries", "Checks run", "Time", "Message");
        for (int i = 0; i < rows.size(); i++) {
            Element row = rows.get(i);
            RunReport.RuleReport rule = r.rules().get(i);
            assertThat(row.attr("data-verdict")).isEqualTo(rule.verdict());
            assertThat(row.select("td.id").text()).isEqualTo(rule.id());
            assertThat(row.select("td.verdict").text()).isEqualTo(rule.verdict());
            assertThat(row.select("td.strength").text()).isEqualTo(rule.strength().replace('_', ' '));
            assertThat(row.select("td.tries").text()).isEqualTo(Long.toString(rule.tries()));
            assertThat(row.select("td.checks").text()).isEqualTo(Long.toString(rule.checksRun()));
            assertThat(row.select("td.time").text()).isEqualTo("0.42 s");
        }
        assertThat(DOC.select("tr#rule-MR-FR-12 td.msg").text()).contains("vendor bug <1234> & co");
        assertThat(DOC.select("#summary li.count[data-verdict=FAIL] b").text()).isEqualTo("2");
        assertThat(DOC.select("#result").text()).isEqualTo("FAIL");
    }

    @Test
    void everyVerdictHasAFilterAndTheFileFetchesNothing() {
        assertThat(DOC.select("input.verdict-filter").eachAttr("value"))
                .containsExactlyInAnyOrder("PASS", "FAIL", "ADVISORY", "NOT_APPLICABLE", "NOT_TESTABLE", "UNTESTED", "EXCLUDED");
        assertThat(DOC.select("script").html()).contains("verdict-filter").contains("data-verdict");
        assertThat(DOC.select("style")).hasSize(1);
        assertThat(DOC.select("link, script[src], img[src], iframe")).isEmpty();
        assertThat(DOC.select("[src], [href]").eachAttr("href")).allMatch(h -> h.startsWith("#"));
        assertThat(DOC.html()).doesNotContain("@import").doesNotContain("url(");
    }

    @Test
    void aCounterexampleIsDrawnWithItsPagesFboLengthBaseAndAccess() {
        Element cx = DOC.selectFirst("article.cx#cx-MR-FR-3");
        assertThat(cx).isNotNull();
        Element svg = cx.selectFirst("svg.region-drawing");
        assertThat(svg).isNotNull();
        assertThat(svg.select("rect.page")).hasSize(2);
        assertThat(svg.select("rect.region")).hasSize(1);
        assertThat(svg.select("line.fbo")).hasSize(1);
        assertThat(svg.select("rect.access")).hasSize(1);
        List<String> texts = svg.select("text").eachText();
        assertThat(texts).contains("FBO 0xF00", "Length 0x1101", "BaseVirtualAddress 0x10F00");
        assertThat(texts).anyMatch(t -> t.contains("read of 0x1 bytes at RemoteAddress 0x12000 (BaseVirtualAddress + 0x1100)"));
        // geometry: the region starts at FBO 0xF00 of a 0x2000-byte array and runs past its end (0xF00 + 0x1101 = 0x2001)
        double pageX = Double.parseDouble(svg.select("rect.page").get(0).attr("x"));
        double pageW = Double.parseDouble(svg.select("rect.page").get(0).attr("width"));
        double regionX = Double.parseDouble(svg.selectFirst("rect.region").attr("x"));
        double regionW = Double.parseDouble(svg.selectFirst("rect.region").attr("width"));
        assertThat(regionX - pageX).isCloseTo(pageW * 0xF00 / 0x1000, org.assertj.core.data.Offset.offset(0.2));
        assertThat(regionX + regionW).isCloseTo(pageX + 2 * pageW, org.assertj.core.data.Offset.offset(0.5));
        assertThat(cx.select("code.replay").text()).isEqualTo("./ndk-tck run --rules MR-FR-3 --seed 9");
        assertThat(cx.text()).contains("property seed -77");
    }

    @Test
    void anIncongruentBaseVirtualAddressIsDrawnWithTheRunsPageSizeAndAMarker() {
        // MR-FR-4 as the kit reports it: the message says "mod PAGE_SIZE = 0x1", which is no PAGE_SIZE field
        String message = "[MR-FR-4] MUST: NdkFastRegister(AdapterPageCount=0x00000001, AdapterPageArray=[0x0000800000000000] "
                + "(1 entries), FBO=0x00000000, Length=0x0000000000001000, BaseVirtualAddress=0x0000000000001001, Flags=0x00000038)\n"
                + "  expected: BaseVirtualAddress mod PAGE_SIZE = 0x00000001 differs from FBO 0x00000000: never registered";
        Counterexample parsed = Counterexample.parse(message);
        assertThat(parsed.get("PAGE_SIZE")).isEmpty();
        assertThat(parsed.get("Length")).contains(BigInteger.valueOf(0x1000));
        Counterexample cx = parsed.withDefault("PAGE_SIZE", BigInteger.valueOf(4096));
        Document svg = Jsoup.parse(RegionDrawing.svg(cx, "MR-FR-4"));
        Element page = svg.selectFirst("rect.page");
        Element region = svg.selectFirst("rect.region");
        assertThat(svg.select("rect.page")).hasSize(1);
        double pageW = Double.parseDouble(page.attr("width"));
        assertThat(pageW).as("one page of 0x1000 bytes holds the whole Length 0x1000").isCloseTo(
                Double.parseDouble(region.attr("width")), org.assertj.core.data.Offset.offset(0.5)).isGreaterThan(600);
        assertThat(svg.select("text").eachText()).contains("PAGE_SIZE 0x1000")
                .anyMatch(t -> t.startsWith("BaseVirtualAddress 0x1001 (mod PAGE_SIZE 0x1, not FBO)"));
        Element bva = svg.selectFirst("line.bva");
        assertThat(bva).isNotNull();
        double pageX = Double.parseDouble(page.attr("x"));
        assertThat(Double.parseDouble(bva.attr("x1")) - pageX).isCloseTo(pageW / 0x1000, org.assertj.core.data.Offset.offset(0.2));
        assertThat(svg.select("path.bva-marker")).hasSize(1);
        // a report carries the run's PAGE_SIZE in provider.adapterInfo.pageSize
        assertThat(HtmlReport.pageSize(SampleReports.sample(false))).isEqualTo(BigInteger.valueOf(4096));
    }

    @Test
    void aPeerAccessAsTheHarnessReportsItIsDrawnAtItsAddress() {
        // the harness's NdkWrite description (NdkSession.peerWrite): an SGE's lower-case length= is not the region's Length
        String message = "[MR-FR-10] MUST: NdkWrite(peer QP, Sgl=[NdkSge{address=0x0000000000400000, length=0x00000040, "
                + "token=0x00000011}], RemoteAddress=0x0000000007000200, RemoteToken=0x00000022, Flags=0x00000000) of 64 byte(s) "
                + "[Access=write, RemoteAddress=0x0000000007000200, AccessLength=0x40]";
        String sample = "[FrPlan{AdapterPageCount=0x00000002, FBO=0x00000200, Length=0x0000000000001000, "
                + "BaseVirtualAddress=0x0000000007000200}]";
        Counterexample cx = Counterexample.parse(message, sample).withDefault("PAGE_SIZE", BigInteger.valueOf(4096));
        assertThat(cx.get("Length")).contains(BigInteger.valueOf(0x1000));
        assertThat(cx.get("AccessLength")).contains(BigInteger.valueOf(0x40));
        assertThat(cx.access()).isEqualTo("write");
        Document svg = Jsoup.parse(RegionDrawing.svg(cx, "t"));
        assertThat(svg.select("text").eachText()).anyMatch(t -> t.contains(
                "write of 0x40 bytes at RemoteAddress 0x7000200 (BaseVirtualAddress + 0x0)"));
        double access = Double.parseDouble(svg.selectFirst("rect.access").attr("x"));
        double region = Double.parseDouble(svg.selectFirst("rect.region").attr("x"));
        assertThat(access).isCloseTo(region, org.assertj.core.data.Offset.offset(0.2));
        assertThat(Double.parseDouble(svg.selectFirst("line.bva").attr("x1"))).isCloseTo(region, org.assertj.core.data.Offset.offset(0.2));
    }

    @Test
    void findingsWithoutFieldsGetASectionButNoDrawing() {
        assertThat(DOC.select("article.cx").eachAttr("data-rule")).containsExactly("MR-FR-3", "MR-REG-9", "GEN-CB-2");
        assertThat(DOC.select("article.cx#cx-MR-REG-9 svg")).isEmpty();
    }

    @Test
    void hugeRegionsAndFarAccessesStayInThePicture() {
        Counterexample cx = Counterexample.parse("AdapterPageCount=0x100000 FBO=4095 Length=0x100000001 "
                + "BaseVirtualAddress=0xFFFFFFFF00000FFF RemoteAddress=0x0000000000000FFF AccessLength=64 Access=write");
        assertThat(cx.get("AdapterPageCount")).contains(BigInteger.valueOf(0x100000));
        assertThat(cx.get("BaseVirtualAddress")).contains(new BigInteger("FFFFFFFF00000FFF", 16));
        assertThat(cx.access()).isEqualTo("write");
        Document svg = Jsoup.parse(RegionDrawing.svg(cx, "t"));
        assertThat(svg.select("rect.page")).hasSize(1);
        assertThat(svg.selectFirst("rect.page").attr("data-pages")).isEqualTo("1048576");
        for (Element e : svg.select("rect")) {
            double x = Double.parseDouble(e.attr("x"));
            double w = Double.parseDouble(e.attr("width"));
            assertThat(x).isBetween(0.0, 760.0);
            assertThat(x + w).isLessThanOrEqualTo(760.0);
        }
        assertThat(svg.select("text").eachText()).anyMatch(t -> t.startsWith("\u2190 write of 0x40 bytes"));
        assertThat(Counterexample.parse("no fields here").drawable()).isFalse();
        assertThat(Counterexample.parse("VA: 0x10000100, Length: 7680").drawable()).isTrue();
    }
}
