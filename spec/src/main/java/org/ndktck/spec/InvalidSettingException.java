package org.ndktck.spec;

/**
 * A provider setting ({@code --set KEY=VALUE}) that the provider does not know or cannot accept. The
 * runner reports it as a usage error (exit 2) with this message, which names the key, the value and
 * what is allowed.
 */
public class InvalidSettingException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    /**
     * @param message one line: the key, the value and what is allowed
     */
    public InvalidSettingException(String message) {
        super(message);
    }
}
