package org.ndktck.reference;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import org.ndktck.spec.NtStatus;

/**
 * An immutable assignment of an implementation to every {@link Piece} of {@link Pieces}: the reference
 * provider uses {@link #standard()}; a faulty variant is {@code standard().with(piece, faulty)}. The model
 * reads every check and data-path decision through the policy of its adapter.
 */
public final class ReferencePolicy {

    /**
     * The first check of a stage that did not let a request through.
     *
     * @param id     the check's piece ID
     * @param status the status it returned
     */
    public record Failure(String id, NtStatus status) {
    }

    private static final ReferencePolicy STANDARD = new ReferencePolicy(standardMap(), Set.of());

    private final Map<Piece<?>, Object> implementations;
    /**
     * The same assignment indexed by {@link Piece#index()} (null where a piece is not in the policy): every call of
     * the model looks up several pieces, and the identity-map lookup was most of the constant cost of a call.
     */
    private final Object[] byIndex;
    private final Set<String> replaced;

    private ReferencePolicy(Map<Piece<?>, Object> implementations, Set<String> replaced) {
        this.implementations = implementations;
        this.replaced = replaced;
        int size = 0;
        for (Piece<?> p : implementations.keySet()) {
            size = Math.max(size, p.index() + 1);
        }
        this.byIndex = new Object[size];
        implementations.forEach((p, impl) -> byIndex[p.index()] = impl);
    }

    private static Map<Piece<?>, Object> standardMap() {
        Map<Piece<?>, Object> m = new IdentityHashMap<>();
        for (Piece<?> p : Pieces.ALL) {
            m.put(p, p.standard());
        }
        return Collections.unmodifiableMap(m);
    }

    /** @return the reference provider's policy: every piece's standard implementation */
    public static ReferencePolicy standard() {
        return STANDARD;
    }

    /**
     * @param piece a piece of {@link Pieces}
     * @param <T>   its interface
     * @return the implementation in effect
     */
    @SuppressWarnings("unchecked")
    public <T> T get(Piece<T> piece) {
        int i = piece == null ? byIndex.length : piece.index();
        Object impl = i < byIndex.length ? byIndex[i] : null;
        if (impl == null) {
            throw new IllegalArgumentException("not a piece of Pieces: " + piece);
        }
        return (T) impl;
    }

    /**
     * @param piece          a piece of {@link Pieces}
     * @param implementation its replacement
     * @param <T>            the piece's interface
     * @return a policy equal to this one except for {@code piece}
     * @throws NullPointerException     when an argument is null
     * @throws IllegalArgumentException when {@code piece} is not one of {@link Pieces#ALL}
     */
    public <T> ReferencePolicy with(Piece<T> piece, T implementation) {
        Objects.requireNonNull(piece, "piece");
        Objects.requireNonNull(implementation, "implementation");
        if (!implementations.containsKey(piece)) {
            throw new IllegalArgumentException("not a piece of Pieces: " + piece);
        }
        if (!piece.type().isInstance(implementation)) {
            throw new IllegalArgumentException(piece.id() + " needs a " + piece.type().getSimpleName()
                    + ", got " + implementation.getClass().getName());
        }
        Map<Piece<?>, Object> m = new IdentityHashMap<>(implementations);
        m.put(piece, implementation);
        Set<String> r = new TreeSet<>(replaced);
        r.add(piece.id());
        return new ReferencePolicy(Collections.unmodifiableMap(m), Collections.unmodifiableSet(r));
    }

    /**
     * By ID: the implementation must implement the piece's interface (checked at run time; for a
     * {@link RuleCheck} the request type cannot be checked, so use the typed {@link #with(Piece, Object)} when
     * you can).
     *
     * @param id             a piece ID of {@link Pieces}
     * @param implementation its replacement
     * @return a policy equal to this one except for that piece
     * @throws IllegalArgumentException when no piece has that ID or the implementation has the wrong interface
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public ReferencePolicy with(String id, Object implementation) {
        Piece piece = Pieces.byId(Objects.requireNonNull(id, "id"))
                .orElseThrow(() -> new IllegalArgumentException("no piece with ID " + id));
        return with(piece, implementation);
    }

    /** @return the IDs of the pieces that differ from the standard, sorted */
    public Set<String> replacedIds() {
        return replaced;
    }

    /** @return the failure status a check gave, or STATUS_INVALID_PARAMETER for a faulty check that gave null or STATUS_PENDING */
    private static NtStatus asFailure(NtStatus status) {
        return status == null || status.isPending() ? NtStatus.STATUS_INVALID_PARAMETER : status;
    }

    /**
     * Runs the checks of one stage in order.
     *
     * @param stage   a stage of {@link Pieces}, e.g. {@link Pieces#FAST_REGISTER}
     * @param request the request
     * @param <Q>     the request type
     * @return the first failure, or empty when every check lets the request through
     */
    public <Q> Optional<Failure> firstFailure(List<Piece<RuleCheck<Q>>> stage, Q request) {
        for (Piece<RuleCheck<Q>> piece : stage) {
            NtStatus status = get(piece).check(request);
            if (status == null || status.code() != NtStatus.STATUS_SUCCESS.code()) {
                return Optional.of(new Failure(piece.id(), asFailure(status)));
            }
        }
        return Optional.empty();
    }

    /**
     * @param stage   a stage of {@link Pieces}
     * @param request the request
     * @param <Q>     the request type
     * @return STATUS_SUCCESS, or the status of the first failing check
     */
    public <Q> NtStatus evaluate(List<Piece<RuleCheck<Q>>> stage, Q request) {
        return firstFailure(stage, request).map(Failure::status).orElse(NtStatus.STATUS_SUCCESS);
    }

    @Override
    public String toString() {
        return replaced.isEmpty() ? "ReferencePolicy{standard}" : "ReferencePolicy{replaced=" + replaced + "}";
    }
}
