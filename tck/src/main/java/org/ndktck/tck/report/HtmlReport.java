package org.ndktck.tck.report;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The HTML report: one self-contained file (inline CSS, inline JavaScript, inline SVG; nothing fetched)
 * with the run's configuration, the verdict counts, a table of every rule ({@code table#rules}, one
 * {@code tr.rule} per rule with {@code data-verdict}) that check boxes filter by verdict and a text box
 * filters by ID or message, and, for every failing or advisory rule, a section ({@code article.cx}) with the
 * message, the counterexample drawn by {@link RegionDrawing} when its fields can be read, the seed and
 * the replay command. A failing run opens on its failures grouped by cause ({@code section#causes}, see
 * {@link FailureCauses}), above the table.
 */
public final class HtmlReport {
    private static final List<String> VERDICTS = List.of("FAIL", "ADVISORY", "PASS", "NOT_APPLICABLE",
            "NOT_TESTABLE", "UNTESTED", "EXCLUDED");

    private HtmlReport() {
    }

    /**
     * @param r the run
     * @return the HTML document
     */
    public static String render(RunReport r) {
        String result = r.exitCode() == 0 ? "PASS" : "FAIL";
        StringBuilder h = new StringBuilder(64 * 1024);
        h.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
        h.append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
        h.append("<title>NDK conformance report: ").append(esc(providerName(r))).append(" ").append(result).append("</title>\n");
        h.append("<style>").append(CSS).append("</style>\n</head>\n<body>\n");
        h.append("<header><h1>NDK memory-region conformance: <span id=\"result\" class=\"badge ").append(result).append("\">")
                .append(result).append("</span></h1>\n");
        h.append("<table id=\"config\">\n");
        row(h, "Provider", providerName(r) + (r.provider() == null || r.provider().className() == null ? ""
                : " (" + r.provider().className() + ")"));
        if (r.provider() != null) {
            row(h, "Settings", settings(r.provider().settings()));
            row(h, "Adapter", r.provider().adapterInfo().isEmpty() ? "unavailable: " + r.provider().adapterInfoError()
                    : adapter(r.provider().adapterInfo()));
        }
        row(h, "Seed", r.seed() + (r.seedGiven() ? "" : " (random)"));
        row(h, "Profile", r.profile() + (r.tries() == null ? "" : ", " + r.tries() + " tries per property")
                + ", timeout factor " + r.timeoutFactor() + (r.strict() ? ", strict" : ""));
        if (r.rulesPattern() != null) {
            row(h, "Rules", r.rulesPattern());
        }
        if (r.shard() != null) {
            row(h, "Shard", r.shard().toString());
        }
        if (!r.mergedShards().isEmpty()) {
            row(h, "Merged shards", String.join(", ", r.mergedShards().stream().map(Object::toString).toList()));
        }
        row(h, "Kit", "ndk-tck " + (r.kit() == null ? "?" : r.kit().version()));
        row(h, "Started", r.startedAt());
        row(h, "Duration", String.format(Locale.ROOT, "%.1f s wall, %d tries in %.1f s of properties (%.1f tries/s)",
                r.durationMillis() / 1000.0, r.summary().tries(), r.summary().propertyMillis() / 1000.0, r.triesPerSecond()));
        h.append("<tr><th>Replay</th><td><code class=\"replay\">").append(esc(r.replay())).append("</code></td></tr>\n");
        h.append("</table>\n</header>\n");

        Map<String, Integer> counts = counts(r);
        h.append("<section id=\"summary\"><h2>Summary</h2><ul class=\"counts\">\n");
        for (String v : VERDICTS) {
            h.append("<li class=\"count\" data-verdict=\"").append(v).append("\"><span class=\"badge ").append(v).append("\">")
                    .append(v).append("</span> <b>").append(counts.get(v)).append("</b></li>\n");
        }
        h.append("</ul></section>\n");

        if (!r.notes().isEmpty()) {
            h.append("<section id=\"notes\"><h2>Notes</h2><ul>\n");
            r.notes().forEach(n -> h.append("<li>").append(esc(n)).append("</li>\n"));
            h.append("</ul></section>\n");
        }

        causes(h, r);

        h.append("<section id=\"rule-table\"><h2>Rules</h2>\n<div id=\"filters\">Show: ");
        for (String v : VERDICTS) {
            h.append("<label><input type=\"checkbox\" class=\"verdict-filter\" value=\"").append(v).append("\" checked> ")
                    .append(v).append(" (").append(counts.get(v)).append(")</label> ");
        }
        h.append("<input type=\"search\" id=\"search\" placeholder=\"rule ID or text\"></div>\n");
        h.append("<table id=\"rules\">\n<thead><tr><th>Rule</th><th>Strength</th><th>Verdict</th><th>Tries</th><th title=\"tries whose check of the rule reached an outcome\">Checks run</th><th>Time</th><th>Message</th></tr></thead>\n<tbody>\n");
        for (RunReport.RuleReport rule : r.rules()) {
            h.append("<tr class=\"rule\" id=\"rule-").append(esc(rule.id())).append("\" data-verdict=\"").append(rule.verdict())
                    .append("\" data-selected=\"").append(rule.selected()).append("\">");
            h.append("<td class=\"id\" title=\"").append(esc(rule.title())).append("\">");
            if (hasSection(rule)) {
                h.append("<a href=\"#cx-").append(esc(rule.id())).append("\">").append(esc(rule.id())).append("</a>");
            } else {
                h.append(esc(rule.id()));
            }
            h.append("</td><td class=\"strength\">").append(esc(rule.strength().replace('_', ' '))).append("</td>");
            h.append("<td class=\"verdict\"><span class=\"badge ").append(rule.verdict()).append("\">").append(rule.verdict())
                    .append("</span></td>");
            h.append("<td class=\"num tries\">").append(rule.tries()).append("</td>");
            h.append("<td class=\"num checks\">").append(rule.checksRun()).append("</td>");
            h.append("<td class=\"num time\">").append(String.format(Locale.ROOT, "%.2f s", rule.durationMillis() / 1000.0)).append("</td>");
            h.append("<td class=\"msg\">");
            String msg = rule.message() == null ? "" : rule.message();
            int nl = msg.indexOf('\n');
            if (nl < 0 && msg.length() <= 160) {
                h.append(esc(msg));
            } else {
                String head = nl < 0 ? msg.substring(0, 160) + "\u2026" : msg.substring(0, Math.min(nl, 160));
                h.append("<details><summary>").append(esc(head)).append("</summary><pre>").append(esc(msg)).append("</pre></details>");
            }
            h.append("</td></tr>\n");
        }
        h.append("</tbody></table></section>\n");

        List<RunReport.RuleReport> findings = r.rules().stream().filter(HtmlReport::hasSection).toList();
        h.append("<section id=\"counterexamples\"><h2>Failures and counterexamples</h2>\n");
        if (findings.isEmpty()) {
            h.append("<p>No rule failed.</p>\n");
        }
        for (RunReport.RuleReport rule : findings) {
            h.append("<article class=\"cx\" id=\"cx-").append(esc(rule.id())).append("\" data-rule=\"").append(esc(rule.id()))
                    .append("\" data-verdict=\"").append(rule.verdict()).append("\">\n");
            h.append("<h3><span class=\"badge ").append(rule.verdict()).append("\">").append(rule.verdict()).append("</span> ")
                    .append(esc(rule.id())).append(" (").append(esc(rule.strength().replace('_', ' '))).append(") ")
                    .append(esc(rule.title())).append("</h3>\n");
            Counterexample cx = Counterexample.parse(rule.message(), rule.counterexample())
                    .withDefault("PAGE_SIZE", pageSize(r));
            if (cx.drawable()) {
                h.append("<figure>").append(RegionDrawing.svg(cx, rule.id() + ": pages, FBO, Length, BaseVirtualAddress and the access"))
                        .append("<figcaption>").append(esc(fields(cx))).append("</figcaption></figure>\n");
            }
            h.append("<pre class=\"message\">").append(esc(rule.message())).append("</pre>\n");
            if (rule.counterexample() != null) {
                h.append("<p>Counterexample:</p><pre class=\"sample\">").append(esc(rule.counterexample())).append("</pre>\n");
            }
            h.append("<p>Seed: run ").append(r.seed()).append(rule.seed() == null ? "" : ", property seed " + esc(rule.seed())).append("</p>\n");
            if (rule.replay() != null) {
                h.append("<p>Replay: <code class=\"replay\">").append(esc(rule.replay())).append("</code></p>\n");
            }
            h.append("</article>\n");
        }
        h.append("</section>\n");
        h.append("<script>").append(JS).append("</script>\n</body>\n</html>\n");
        return h.toString();
    }

    /**
     * The failures grouped by cause ({@link FailureCauses}), first thing after the counts, so a failing run opens on
     * what failed: one {@code article.cause} per cause with the rules it made FAIL or ADVISORY (links to their
     * sections below), what to write first for a set-up error, and the first rule's replay.
     */
    private static void causes(StringBuilder h, RunReport r) {
        List<FailureCauses.FailureCause> causes = FailureCauses.of(r);
        if (causes.isEmpty()) {
            return;
        }
        Map<String, RunReport.RuleReport> byId = new LinkedHashMap<>();
        r.rules().forEach(x -> byId.put(x.id(), x));
        h.append("<section id=\"causes\"><h2>Failures by cause</h2>\n");
        int n = 0;
        for (FailureCauses.FailureCause c : causes) {
            n++;
            String verdict = !c.failedRules().isEmpty() ? "FAIL" : !c.advisoryRules().isEmpty() ? "ADVISORY" : "UNTESTED";
            h.append("<article class=\"cause\" id=\"cause-").append(n).append("\" data-verdict=\"").append(verdict).append("\">\n");
            h.append("<h3><span class=\"badge ").append(verdict).append("\">").append(verdict).append("</span> ")
                    .append(esc(c.cause())).append("</h3>\n<p>");
            h.append(c.failedRules().size()).append(" FAIL, ").append(c.advisoryRules().size()).append(" ADVISORY; met by ")
                    .append(c.properties().size()).append(c.properties().size() == 1 ? " property" : " properties")
                    .append(" (first: <code>").append(esc(c.properties().get(0))).append("</code>)</p>\n<p class=\"rules\">");
            for (String id : c.rules()) {
                h.append("<a href=\"#cx-").append(esc(id)).append("\">").append(esc(id)).append("</a> ");
            }
            h.append("</p>\n");
            if (c.implementFirst() != null) {
                h.append("<p>Write <b>").append(esc(c.implementFirst())).append("</b> first: the kit cannot set up these rules' "
                        + "checks without it (<code>./ndk-tck rules --call ").append(esc(c.implementFirst()))
                        .append("</code>; docs/spi-calls.md ranks the SPI calls by how many rules need them).</p>\n");
            }
            RunReport.RuleReport first = c.rule() == null ? null : byId.get(c.rule());
            if (first != null && first.replay() != null) {
                h.append("<p>Replay: <code class=\"replay\">").append(esc(first.replay())).append("</code></p>\n");
            }
            h.append("</article>\n");
        }
        h.append("</section>\n");
    }

    /**
     * @param r a report
     * @return PAGE_SIZE of the run's adapter ({@code provider.adapterInfo.pageSize}), or null when the report lacks it
     */
    static java.math.BigInteger pageSize(RunReport r) {
        if (r.provider() == null || r.provider().adapterInfo() == null) {
            return null;
        }
        Object v = r.provider().adapterInfo().get("pageSize");
        if (v instanceof Number || v instanceof String) {
            try {
                java.math.BigInteger b = new java.math.BigInteger(v.toString());
                return b.signum() > 0 ? b : null;
            } catch (NumberFormatException e) {
                return null;
            }
        }
        return null;
    }

    private static boolean hasSection(RunReport.RuleReport rule) {
        return rule.verdict().equals("FAIL") || rule.verdict().equals("ADVISORY");
    }

    private static Map<String, Integer> counts(RunReport r) {
        Map<String, Integer> m = new LinkedHashMap<>();
        VERDICTS.forEach(v -> m.put(v, 0));
        r.rules().forEach(rule -> m.merge(rule.verdict(), 1, Integer::sum));
        return m;
    }

    private static String fields(Counterexample cx) {
        StringBuilder sb = new StringBuilder();
        cx.fields().forEach((k, v) -> sb.append(sb.length() == 0 ? "" : ", ").append(k).append(' ')
                .append(k.equals("AdapterPageCount") ? v.toString() : RegionDrawing.hex(v)));
        if (cx.access() != null) {
            sb.append(", access ").append(cx.access());
        }
        return sb.toString();
    }

    private static String providerName(RunReport r) {
        return r.provider() == null ? "?" : r.provider().name();
    }

    private static String settings(Map<String, String> s) {
        if (s == null || s.isEmpty()) {
            return "(none)";
        }
        StringBuilder sb = new StringBuilder();
        s.forEach((k, v) -> sb.append(sb.length() == 0 ? "" : ", ").append(k).append('=').append(v));
        return sb.toString();
    }

    private static String adapter(Map<String, Object> ai) {
        return "NDKPI " + ai.get("version") + ", AdapterFlags " + ai.get("adapterFlagsHex") + " " + ai.get("adapterFlagNames")
                + ", FRMRPageCount " + ai.get("frmrPageCount") + ", MaxRegistrationSize " + ai.get("maxRegistrationSize");
    }

    private static void row(StringBuilder h, String k, String v) {
        h.append("<tr><th>").append(esc(k)).append("</th><td>").append(esc(v)).append("</td></tr>\n");
    }

    /**
     * @param s text or null
     * @return it escaped for HTML text and attribute values
     */
    public static String esc(String s) {
        if (s == null) {
            return "";
        }
        StringBuilder sb = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '<' -> sb.append("&lt;");
                case '>' -> sb.append("&gt;");
                case '&' -> sb.append("&amp;");
                case '"' -> sb.append("&quot;");
                case '\'' -> sb.append("&#39;");
                default -> sb.append(c);
            }
        }
        return sb.toString();
    }

    private static final String CSS = """
            body{font:14px/1.4 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:1.5em;color:#222}
            h1{font-size:1.5em}h2{font-size:1.2em;margin-top:1.5em}h3{font-size:1.05em}
            table{border-collapse:collapse}#config th{text-align:left;padding:2px 12px 2px 0;vertical-align:top}
            #rules{width:100%}#rules th,#rules td{border-bottom:1px solid #ddd;padding:3px 8px;text-align:left;vertical-align:top}
            #rules thead th{position:sticky;top:0;background:#f4f4f4}.num{text-align:right!important;white-space:nowrap}
            .id{white-space:nowrap;font-family:ui-monospace,monospace}.msg{max-width:60em}
            pre{white-space:pre-wrap;background:#f7f7f7;padding:6px;margin:4px 0;font-size:12px}
            code.replay{background:#f0f0f0;padding:1px 4px;user-select:all}
            .badge{display:inline-block;padding:0 6px;border-radius:3px;font-size:12px;font-weight:600;color:#fff;background:#777}
            .PASS{background:#2e7d32}.FAIL{background:#c62828}.ADVISORY{background:#ef6c00}.NOT_APPLICABLE{background:#546e7a}
            .NOT_TESTABLE{background:#8d8d8d}.UNTESTED{background:#b0891c}.EXCLUDED{background:#6a1b9a}
            ul.counts{list-style:none;padding:0;display:flex;gap:18px;flex-wrap:wrap}
            #filters{margin:6px 0 10px}#filters label{margin-right:10px;white-space:nowrap}
            article.cx{border:1px solid #ddd;border-left:4px solid #c62828;padding:4px 12px;margin:12px 0}
            article.cx[data-verdict=ADVISORY]{border-left-color:#ef6c00}
            article.cause{border:1px solid #ddd;border-left:4px solid #c62828;padding:4px 12px;margin:12px 0;background:#fff8f8}
            article.cause[data-verdict=ADVISORY]{border-left-color:#ef6c00;background:#fffaf3}
            svg.region-drawing{background:#fbfbfb;border:1px solid #eee;max-width:100%;height:auto}
            svg .page{fill:#e3eaf3;stroke:#5c7a99;stroke-width:1}svg .page-label{font-size:10px;fill:#5c7a99}
            svg .region{fill:#66bb6a;fill-opacity:.55;stroke:#2e7d32}svg .fbo{stroke:#1565c0;stroke-width:2;stroke-dasharray:4 2}
            svg .access{fill:#e53935;fill-opacity:.8;stroke:#b71c1c}svg .access-guide{stroke:#e53935;stroke-dasharray:2 2}svg .label{font-size:11px;fill:#333;font-family:ui-monospace,monospace}
            svg .bva{stroke:#6a1b9a;stroke-width:1.5}svg .bva-marker{fill:#6a1b9a}
            figcaption{font-size:12px;color:#555}
            """;

    private static final String JS = """
            (function(){
              var boxes=document.querySelectorAll('input.verdict-filter');
              var search=document.getElementById('search');
              function apply(){
                var on={};boxes.forEach(function(b){on[b.value]=b.checked;});
                var q=(search.value||'').toLowerCase();
                document.querySelectorAll('#rules tr.rule').forEach(function(tr){
                  var show=on[tr.getAttribute('data-verdict')]&&(!q||tr.textContent.toLowerCase().indexOf(q)>=0);
                  tr.style.display=show?'':'none';
                });
              }
              boxes.forEach(function(b){b.addEventListener('change',apply);});
              search.addEventListener('input',apply);
              document.querySelectorAll('li.count').forEach(function(li){
                li.style.cursor='pointer';
                li.addEventListener('click',function(){
                  var v=li.getAttribute('data-verdict');
                  boxes.forEach(function(b){b.checked=(b.value===v);});apply();
                });
              });
            })();
            """;
}
