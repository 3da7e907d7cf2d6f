/**
 * The runner's reports: the model of {@code report.json} ({@link org.ndktck.tck.report.RunReport}, whose
 * field names are a contract), the single-file HTML report with counterexample drawings
 * ({@link org.ndktck.tck.report.HtmlReport}, {@link org.ndktck.tck.report.RegionDrawing}, fed by the
 * {@code Name=value} fields of failure messages that {@link org.ndktck.tck.report.Counterexample} reads),
 * JUnit XML of rules ({@link org.ndktck.tck.report.JUnitXmlReport}), the merge of shards
 * ({@link org.ndktck.tck.report.ReportMerger}) and {@code selftest.json}
 * ({@link org.ndktck.tck.report.SelftestReport}).
 */
package org.ndktck.tck.report;
