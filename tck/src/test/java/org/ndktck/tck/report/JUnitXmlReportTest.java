package org.ndktck.tck.report;

import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import javax.xml.parsers.DocumentBuilderFactory;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The JUnit XML report has the shape Surefire writes: counts that add up, one test case per rule, failure and skipped elements. */
class JUnitXmlReportTest {
    private static Document parse(String xml) throws Exception {
        return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
    }

    private static Map<String, Element> cases(Document d) {
        Map<String, Element> m = new HashMap<>();
        NodeList l = d.getElementsByTagName("testcase");
        for (int i = 0; i < l.getLength(); i++) {
            Element e = (Element) l.item(i);
            m.put(e.getAttribute("name"), e);
        }
        return m;
    }

    @Test
    void surefireShape() throws Exception {
        Document d = parse(JUnitXmlReport.render(SampleReports.sample(false)));
        Element suite = d.getDocumentElement();
        assertThat(suite.getTagName()).isEqualTo("testsuite");
        Map<String, Element> cases = cases(d);
        assertThat(cases).doesNotContainKey("MR-FR-5").containsKey("GEN-CB-2");
        assertThat(Integer.parseInt(suite.getAttribute("tests"))).isEqualTo(cases.size()).isEqualTo(8);
        assertThat(Integer.parseInt(suite.getAttribute("failures"))).isEqualTo(d.getElementsByTagName("failure").getLength()).isEqualTo(2);
        assertThat(Integer.parseInt(suite.getAttribute("skipped"))).isEqualTo(d.getElementsByTagName("skipped").getLength()).isEqualTo(4);
        assertThat(suite.getAttribute("errors")).isEqualTo("0");
        assertThat(Double.parseDouble(suite.getAttribute("time"))).isEqualTo(5.0);
        assertThat(suite.getAttribute("timestamp")).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d");
        assertThat(suite.getElementsByTagName("property").getLength()).isGreaterThanOrEqualTo(4);
        for (Element c : cases.values()) {
            assertThat(c.getAttribute("classname")).isEqualTo("ndk-tck.NdkFastRegister");
            assertThat(Double.parseDouble(c.getAttribute("time"))).isEqualTo(0.42);
        }
        Element fail = (Element) cases.get("MR-FR-3").getElementsByTagName("failure").item(0);
        assertThat(fail.getAttribute("message")).startsWith("FAIL MR-FR-3 (MUST): [MR-FR-3] MUST: NdkFastRegister accepted");
        assertThat(fail.getAttribute("type")).isEqualTo("FAIL.MUST");
        assertThat(fail.getTextContent()).contains("seed: run 9, property seed -77").contains("replay: ./ndk-tck run --rules MR-FR-3 --seed 9");
        Element na = (Element) cases.get("MR-REG-7").getElementsByTagName("skipped").item(0);
        assertThat(na.getAttribute("message")).startsWith("NOT_APPLICABLE: MR-REG-7: the adapter does not set");
        Element ex = (Element) cases.get("MR-FR-12").getElementsByTagName("skipped").item(0);
        assertThat(ex.getAttribute("message")).isEqualTo("EXCLUDED: excluded until 2030-01-01: vendor bug <1234> & co");
        assertThat(cases.get("MR-FR-4").getChildNodes().getLength()).isZero();
        assertThat(cases.get("MR-REG-9").getElementsByTagName("system-out").item(0).getTextContent()).startsWith("ADVISORY MR-REG-9");
        assertThat(cases.get("GEN-CB-2").getElementsByTagName("failure").item(0).getTextContent()).contains("inline return?");
    }

    @Test
    void underStrictAnAdvisoryIsAFailure() throws Exception {
        Document d = parse(JUnitXmlReport.render(SampleReports.sample(true)));
        assertThat(d.getDocumentElement().getAttribute("failures")).isEqualTo("3");
        assertThat(cases(d).get("MR-REG-9").getElementsByTagName("failure").getLength()).isEqualTo(1);
    }
}
