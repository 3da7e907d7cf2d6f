package org.ndktck.tck.runner;

import picocli.CommandLine;

import java.util.Locale;

/** Option converters and small parsers of the command line. */
final class Converters {
    private Converters() {
    }

    /** A 64-bit seed, decimal (signed) or hex with {@code 0x} (unsigned bit pattern). */
    static final class SeedConverter implements CommandLine.ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            String v = value.trim();
            try {
                if (v.startsWith("0x") || v.startsWith("0X")) {
                    return Long.parseUnsignedLong(v.substring(2), 16);
                }
                return Long.parseLong(v);
            } catch (NumberFormatException e) {
                throw new CommandLine.TypeConversionException("'" + value + "' is not a 64-bit integer seed");
            }
        }
    }

    /**
     * One {@code --set KEY=VALUE}: the key must be non-empty and the value may be empty. Checked here so that a
     * missing '=' gets one clear line (picocli's own map message doubles a word).
     */
    static final class SettingConverter implements CommandLine.ITypeConverter<String> {
        @Override
        public String convert(String value) {
            int eq = value.indexOf('=');
            if (value.strip().equals(SettingsHelp.KEY)) {
                return SettingsHelp.KEY + "=1";
            }
            if (eq < 0) {
                throw new CommandLine.TypeConversionException("'" + value + "' is not KEY=VALUE (e.g. completion=pending)");
            }
            if (value.substring(0, eq).isBlank()) {
                throw new CommandLine.TypeConversionException("'" + value + "' has no KEY before '=' (e.g. completion=pending)");
            }
            return value;
        }
    }

    /**
     * @param pairs {@code KEY=VALUE} strings checked by {@link SettingConverter}, in order
     * @return key to value; a later pair of one key wins
     */
    static java.util.Map<String, String> settings(java.util.List<String> pairs) {
        java.util.Map<String, String> m = new java.util.LinkedHashMap<>();
        if (pairs != null) {
            for (String p : pairs) {
                int eq = p.indexOf('=');
                m.put(p.substring(0, eq).trim(), p.substring(eq + 1));
            }
        }
        return m;
    }

    /** A profile name: smoke, standard or deep, any case. */
    static final class ProfileConverter implements CommandLine.ITypeConverter<org.ndktck.tck.harness.TckConfig.Profile> {
        @Override
        public org.ndktck.tck.harness.TckConfig.Profile convert(String value) {
            try {
                return org.ndktck.tck.harness.TckConfig.Profile.parse(value);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException("'" + value + "' is not a profile: use smoke, standard or deep");
            }
        }
    }

    /**
     * @param text auto, line, plain or none
     * @return the console mode
     */
    static Console.Mode progress(String text) {
        return switch (text.toLowerCase(Locale.ROOT)) {
            case "line" -> Console.Mode.LINE;
            case "plain" -> Console.Mode.PLAIN;
            case "none" -> Console.Mode.NONE;
            case "auto" -> Console.detect();
            default -> throw new UsageException("bad --progress '" + text + "'", "use auto, line, plain or none");
        };
    }
}
