package org.ndktck.spec.rules;

import java.util.List;

/**
 * One rule of the catalog (design section 4). Every field is filled; lists may be empty where the
 * pages list nothing.
 *
 * @param id              stable ID such as {@code MR-FR-4} (the digest's ID, or ours in the same style)
 * @param title           a short title
 * @param function        the NDK function or page, e.g. {@code NdkFastRegister}
 * @param group           the catalog section the rule is listed under, e.g. {@code NdkFastRegister}
 * @param binds           who the rule binds
 * @param strength        MUST, MUST NOT, SHOULD, SHOULD NOT, MAY, FACT or UNSPECIFIED
 * @param basis           where its force comes from
 * @param check           how the kit checks it
 * @param statement       the rule in the kit's own words
 * @param howChecked      what the kit does for it: the property, or how the kit honours a consumer rule
 * @param allowedStatuses NTSTATUS constant names ({@link org.ndktck.spec.NtStatus}) that the pages list as
 *                        results of the call or completion the rule is about (empty when none are listed).
 *                        For a rule whose failure is MUST but whose code is only SHOULD (MR-REG-2, LAM-2,
 *                        MR-FRI-3, MR-FR-6, MR-FR-7, INV-2, RW-2) it is the listed code: any error passes the
 *                        rule, and a different error code is an ADVISORY finding
 * @param source          the source page(s), in the digest's notation (D:fast_register, N:..., S, H)
 * @param ambiguities     IDs of the ambiguity entries it resolves ({@code AMB-1}), possibly empty
 * @param requires        capabilities it needs, all of them: {@code ADAPTER_FLAG:<name>} with a constant name
 *                        of {@link org.ndktck.spec.NdkAdapterFlags} (e.g.
 *                        {@code ADAPTER_FLAG:RDMA_READ_SINK_NOT_REQUIRED}) or {@code NDK_VERSION:<major>.<minor>}
 *                        (the adapter's NDKPI version is at least that); empty when it always applies. On an
 *                        adapter without them the rule is NOT_APPLICABLE
 * @param guards          for a rule of basis KIT_INTERPRETATION, why a broken check is still a FAIL (memory exposed,
 *                        data lost, a stated duty, a founding rule; {@link Guard}); null when it is not, and then the
 *                        rule's findings are ADVISORY ({@link #failIsAdvisory()}). Ignored for other bases
 */
public record Rule(String id, String title, String function, String group, Binds binds, Strength strength,
                   Basis basis, Check check, String statement, String howChecked, List<String> allowedStatuses,
                   String source, List<String> ambiguities, List<String> requires, Guard guards) {

    /** A rule without a {@code guards} entry (the catalog's form before the field existed). */
    public Rule(String id, String title, String function, String group, Binds binds, Strength strength,
                Basis basis, Check check, String statement, String howChecked, List<String> allowedStatuses,
                String source, List<String> ambiguities, List<String> requires) {
        this(id, title, function, group, binds, strength, basis, check, statement, howChecked, allowedStatuses,
                source, ambiguities, requires, null);
    }

    /** Normalizes null lists to empty ones. */
    public Rule {
        allowedStatuses = allowedStatuses == null ? List.of() : List.copyOf(allowedStatuses);
        ambiguities = ambiguities == null ? List.of() : List.copyOf(ambiguities);
        requires = requires == null ? List.of() : List.copyOf(requires);
    }

    /** @return true when the kit must have at least one property for this rule */
    public boolean needsProperty() {
        return check == Check.PROVIDER_PROPERTY;
    }

    /**
     * @return true when a failure of this rule is reported ADVISORY with the note {@code kit interpretation}
     *     rather than FAIL: its basis is KIT_INTERPRETATION and the catalog gives no {@code guards} reason (a SHOULD
     *     rule is ADVISORY anyway)
     */
    public boolean failIsAdvisory() {
        return basis == Basis.KIT_INTERPRETATION && guards == null;
    }
}
