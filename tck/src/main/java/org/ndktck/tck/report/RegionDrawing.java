package org.ndktck.tck.report;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.util.Locale;

/**
 * Draws a counterexample as inline SVG: the pages of the page array (or of the MDL), the FBO, the region
 * [FBO, FBO + Length) with its BaseVirtualAddress, and the access that went wrong, placed by its distance
 * from BaseVirtualAddress. Positions are in bytes from the start of page 0 and scaled linearly; an access
 * far outside the picture is drawn at the edge with an arrow and its real offset. Elements carry classes
 * {@code page}, {@code region}, {@code fbo}, {@code access} so tests and stylesheets can find them.
 */
public final class RegionDrawing {
    private static final int WIDTH = 760;
    private static final int LEFT = 20;
    private static final int SPAN = 720;
    private static final int MAX_PAGE_RECTS = 64;

    private RegionDrawing() {
    }

    /**
     * @param cx the counterexample's fields ({@link Counterexample#drawable()} must hold)
     * @param title a title for the drawing
     * @return an {@code <svg>} element
     */
    public static String svg(Counterexample cx, String title) {
        BigInteger pageSize = cx.get("PAGE_SIZE").filter(p -> p.signum() > 0).orElse(BigInteger.valueOf(4096));
        BigInteger length = cx.get("Length").orElse(BigInteger.ZERO);
        BigInteger base = cx.get("BaseVirtualAddress").or(() -> cx.get("VA")).orElse(null);
        BigInteger fbo = cx.get("FBO").orElseGet(() -> base == null ? BigInteger.ZERO : base.mod(pageSize));
        BigInteger regionStart = fbo;
        BigInteger regionEnd = fbo.add(length);
        BigInteger pages = cx.get("AdapterPageCount").filter(p -> p.signum() > 0)
                .orElseGet(() -> ceilDiv(regionEnd.max(BigInteger.ONE), pageSize).max(BigInteger.ONE));
        BigInteger arrayEnd = pages.multiply(pageSize);

        BigInteger accStart = null;
        BigInteger accEnd = null;
        if (cx.get("RemoteAddress").isPresent()) {
            BigInteger remote = cx.get("RemoteAddress").get();
            BigInteger offset = remote.subtract(base == null ? fbo : base);
            accStart = fbo.add(offset);
            accEnd = accStart.add(cx.get("AccessLength").filter(l -> l.signum() > 0).orElse(BigInteger.ONE));
        }

        BigInteger core = arrayEnd.max(regionEnd);
        BigInteger lo = BigInteger.ZERO;
        BigInteger hi = core;
        BigInteger farLimit = core.multiply(BigInteger.valueOf(8));
        boolean accLeftClipped = false;
        boolean accRightClipped = false;
        if (accStart != null) {
            if (accStart.negate().compareTo(farLimit) > 0) {
                accLeftClipped = true;
                lo = core.negate().divide(BigInteger.valueOf(8)).min(BigInteger.ONE.negate());
            } else {
                lo = lo.min(accStart);
            }
            if (accEnd.compareTo(farLimit) > 0) {
                accRightClipped = true;
                hi = core.add(core.divide(BigInteger.valueOf(8))).add(BigInteger.ONE);
            } else {
                hi = hi.max(accEnd);
            }
        }
        final BigInteger dlo = lo;
        final BigInteger dspan = hi.subtract(lo).max(BigInteger.ONE);

        StringBuilder s = new StringBuilder();
        s.append("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"region-drawing\" role=\"img\" width=\"").append(WIDTH)
                .append("\" height=\"170\" viewBox=\"0 0 ").append(WIDTH).append(" 170\">");
        s.append("<title>").append(HtmlReport.esc(title)).append("</title>");
        // pages
        if (pages.compareTo(BigInteger.valueOf(MAX_PAGE_RECTS)) <= 0) {
            for (int i = 0; i < pages.intValue(); i++) {
                BigInteger a = pageSize.multiply(BigInteger.valueOf(i));
                double x0 = x(a, dlo, dspan);
                double x1 = x(a.add(pageSize), dlo, dspan);
                s.append(String.format(Locale.ROOT, "<rect class=\"page\" data-page=\"%d\" x=\"%.1f\" y=\"40\" width=\"%.1f\" height=\"44\"/>",
                        i, x0, Math.max(1, x1 - x0)));
                if (x1 - x0 > 46) {
                    s.append(String.format(Locale.ROOT, "<text class=\"page-label\" x=\"%.1f\" y=\"81\">page %d</text>", x0 + 3, i));
                }
            }
        } else {
            double x0 = x(BigInteger.ZERO, dlo, dspan);
            double x1 = x(arrayEnd, dlo, dspan);
            s.append(String.format(Locale.ROOT, "<rect class=\"page page-run\" data-pages=\"%s\" x=\"%.1f\" y=\"40\" width=\"%.1f\" height=\"44\"/>",
                    pages, x0, Math.max(1, x1 - x0)));
            s.append(String.format(Locale.ROOT, "<text class=\"page-label\" x=\"%.1f\" y=\"80\">%s pages of 0x%s bytes</text>",
                    x0 + 3, pages, pageSize.toString(16).toUpperCase(Locale.ROOT)));
        }
        // region
        double r0 = x(regionStart, dlo, dspan);
        double r1 = x(regionEnd, dlo, dspan);
        s.append(String.format(Locale.ROOT, "<rect class=\"region\" x=\"%.1f\" y=\"46\" width=\"%.1f\" height=\"22\"/>", r0, Math.max(2, r1 - r0)));
        if (r1 - r0 > 120) {
            s.append(String.format(Locale.ROOT, "<text class=\"label region-label\" x=\"%.1f\" y=\"61\">region [FBO, FBO + Length)</text>", r0 + 6));
        }
        // FBO
        s.append(String.format(Locale.ROOT, "<line class=\"fbo\" x1=\"%.1f\" y1=\"30\" x2=\"%.1f\" y2=\"92\"/>", r0, r0));
        s.append(String.format(Locale.ROOT, "<text class=\"label\" x=\"%.1f\" y=\"24\">FBO %s</text>", clampText(r0), hex(fbo)));
        s.append(String.format(Locale.ROOT, "<text class=\"label page-size\" x=\"%.1f\" y=\"24\">PAGE_SIZE %s</text>",
                (double) LEFT + SPAN - 130, hex(pageSize)));
        s.append(String.format(Locale.ROOT, "<text class=\"label\" x=\"%.1f\" y=\"106\">Length %s</text>", clampText(r0), hex(length)));
        if (base != null) {
            // BaseVirtualAddress (or the MDL's VA) marks where its offset in a page puts byte 0 of the region: at FBO
            // when the two agree (MR-FR-4), elsewhere in page 0 when they do not
            BigInteger inPage = base.mod(pageSize);
            double b = x(inPage, dlo, dspan);
            String name = cx.get("BaseVirtualAddress").isPresent() ? "BaseVirtualAddress" : "VA";
            s.append(String.format(Locale.ROOT, "<line class=\"bva\" x1=\"%.1f\" y1=\"34\" x2=\"%.1f\" y2=\"112\"/>", b, b));
            s.append(String.format(Locale.ROOT, "<path class=\"bva-marker\" d=\"M%.1f,112 l-4,7 l8,0 z\"/>", b));
            String label = name + " " + hex(base) + (inPage.equals(fbo.mod(pageSize)) ? ""
                    : " (mod PAGE_SIZE " + hex(inPage) + ", not FBO)");
            s.append(String.format(Locale.ROOT, "<text class=\"label bva-label\" x=\"%.1f\" y=\"120\">%s</text>",
                    clampText(b + 6), HtmlReport.esc(label)));
        }
        // access
        if (accStart != null) {
            double a0 = accLeftClipped ? LEFT : x(accStart, dlo, dspan);
            double a1 = accRightClipped ? LEFT + SPAN : x(accEnd, dlo, dspan);
            if (accLeftClipped && accRightClipped) {
                a1 = a0 + 8;
            } else if (accRightClipped && !accLeftClipped) {
                a0 = Math.min(a0, a1 - 8);
            }
            s.append(String.format(Locale.ROOT, "<line class=\"access-guide\" x1=\"%.1f\" y1=\"40\" x2=\"%.1f\" y2=\"142\"/>", a0, a0));
            s.append(String.format(Locale.ROOT, "<rect class=\"access\" x=\"%.1f\" y=\"130\" width=\"%.1f\" height=\"12\"/>", a0, Math.max(3, a1 - a0)));
            BigInteger offset = accStart.subtract(fbo);
            String dir = cx.access() == null ? "access" : cx.access();
            String len = cx.get("AccessLength").map(RegionDrawing::hex).map(l -> " of " + l + " bytes").orElse("");
            String where = (accLeftClipped ? "\u2190 " : "") + dir + len + " at RemoteAddress "
                    + hex(cx.get("RemoteAddress").get()) + " (BaseVirtualAddress " + (offset.signum() < 0 ? "\u2212 " : "+ ")
                    + hex(offset.abs()) + ")" + (accRightClipped ? " \u2192" : "");
            s.append(String.format(Locale.ROOT, "<text class=\"label access-label\" x=\"%.1f\" y=\"160\">%s</text>",
                    Math.min(Math.max(LEFT, a0), LEFT + SPAN - 380), HtmlReport.esc(where)));
        }
        s.append("</svg>");
        return s.toString();
    }

    private static double x(BigInteger v, BigInteger lo, BigInteger span) {
        BigDecimal f = new BigDecimal(v.subtract(lo)).divide(new BigDecimal(span), MathContext.DECIMAL64);
        return LEFT + Math.max(0, Math.min(1, f.doubleValue())) * SPAN;
    }

    private static double clampText(double x) {
        return Math.min(Math.max(LEFT, x), LEFT + SPAN - 260);
    }

    private static BigInteger ceilDiv(BigInteger a, BigInteger b) {
        BigInteger[] qr = a.divideAndRemainder(b);
        return qr[1].signum() == 0 ? qr[0] : qr[0].add(BigInteger.ONE);
    }

    static String hex(BigInteger v) {
        return (v.signum() < 0 ? "-0x" + v.negate().toString(16) : "0x" + v.toString(16)).toUpperCase(Locale.ROOT).replace("0X", "0x");
    }
}
