#!/usr/bin/env bash
# Builds the sample C provider and its fault variants with gcc. The Maven build of native/ runs it
# in generate-resources; run it by hand after editing the C code:
#   bash native/build-sample.sh [OUTDIR]        (default: native/target/native)
# Output: libndk_sample.so (the sample), libndk_sample_fault_<RULE>.so (one planted bug each; the kit must FAIL
# that rule), and three broken libraries for the bridge's own tests (wrong header version, a missing symbol,
# a file that is not a library). Needs only gcc; CC overrides the compiler, CFLAGS adds flags.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="${1:-$here/target/native}"
cc="${CC:-gcc}"
mkdir -p "$out"
if ! command -v "$cc" >/dev/null 2>&1; then
    echo "build-sample.sh: the C compiler '$cc' is not on the PATH (hint: install gcc)" >&2
    exit 2
fi
flags=(-std=c11 -D_GNU_SOURCE -O2 -g -Wall -Wextra -Werror -fPIC -shared -fvisibility=hidden -pthread -I "$here/include")
src="$here/sample/ndk_sample.c"
pids=()
build() { # name, extra flags... (in the background: the builds are independent; waited for at the end)
    local name="$1"; shift
    "$cc" "${flags[@]}" ${CFLAGS:-} "$@" -o "$out/$name.so" "$src" &
    pids+=($!)
}
build libndk_sample
# fault variants: libndk_sample_fault_<rule the kit must FAIL>[_<variant>]
build libndk_sample_fault_MR-FR-4 -DFAULT_MR_FR_4 -DSAMPLE_NAME='"ndk-sample fault MR-FR-4"'
build libndk_sample_fault_MR-FR-3 -DFAULT_MR_FR_3 -DSAMPLE_NAME='"ndk-sample fault MR-FR-3"'
build libndk_sample_fault_MR-REG-4_wrap -DFAULT_MR_REG_4_WRAP -DSAMPLE_NAME='"ndk-sample fault MR-REG-4/wrap"'
build libndk_sample_fault_MR-REG-7 -DFAULT_MR_REG_7 -DSAMPLE_NAME='"ndk-sample fault MR-REG-7"'
build libndk_sample_fault_GEN-CB-1_twice -DFAULT_GEN_CB_1_TWICE -DSAMPLE_NAME='"ndk-sample fault GEN-CB-1/twice"'
build libndk_sample_fault_GEN-TIME-1_hang -DFAULT_HANG -DSAMPLE_NAME='"ndk-sample fault GEN-TIME-1/hang"'
build libndk_sample_crash -DFAULT_SEGV -DSAMPLE_NAME='"ndk-sample crash"'
# a degenerate shape inside a chain: an MDL of ByteCount 0 between two others ends NdkBuildLam's page walk
build libndk_sample_fault_LAM-4_empty-mdl -DFAULT_LAM_EMPTY_MDL -DSAMPLE_NAME='"ndk-sample fault LAM-4/empty-mdl"'
# memory and thread faults: each also built with the sanitizers' flags (README), for --set sanitizer=...
san=(-fsanitize=address,undefined -fno-omit-frame-pointer)
for f in UAF:MR-DEREG-3_uaf DOUBLE_FREE:MR-DEREG-2_double-free RACE:MR-TOK-6_race RARE_SEGV:MR-REG-13_rare-crash \
         RARE_HANG:GEN-TIME-1_rare-hang; do
    name="libndk_sample_fault_${f#*:}"
    build "$name" "-DFAULT_${f%%:*}" -DSAMPLE_NAME="\"ndk-sample fault ${f#*:}\""
done
build libndk_sample_fault_MR-DEREG-3_uaf_asan -DFAULT_UAF "${san[@]}" -DSAMPLE_NAME='"ndk-sample fault MR-DEREG-3/uaf (asan)"'
build libndk_sample_fault_MR-DEREG-2_double-free_asan -DFAULT_DOUBLE_FREE "${san[@]}" \
    -DSAMPLE_NAME='"ndk-sample fault MR-DEREG-2/double-free (asan)"'
build libndk_sample_fault_MR-TOK-6_race_tsan -DFAULT_RACE -fsanitize=thread -DSAMPLE_NAME='"ndk-sample fault MR-TOK-6/race (tsan)"'
build libndk_sample_asan "${san[@]}" -DSAMPLE_NAME='"ndk-sample (asan)"'
# process isolation (--set isolation=process, --set sanitizer=...): the relay the kit loads, and the host
# process that runs a provider's library: plain, under AddressSanitizer + UndefinedBehaviorSanitizer, under
# ThreadSanitizer (gcc ships the three runtimes: libasan, libubsan, libtsan)
hostflags=(-std=c11 -D_GNU_SOURCE -O2 -g -Wall -Wextra -Werror -pthread -I "$here/include" -I "$here/host")
"$cc" "${hostflags[@]}" -fPIC -shared -fvisibility=hidden -o "$out/libndk_tck_relay.so" "$here/host/ndk_tck_relay.c" &
pids+=($!)
"$cc" "${hostflags[@]}" -rdynamic -o "$out/ndk-tck-host" "$here/host/ndk_tck_host.c" -ldl &
pids+=($!)
"$cc" "${hostflags[@]}" -fsanitize=address,undefined -fno-omit-frame-pointer -o "$out/ndk-tck-host-asan" \
    "$here/host/ndk_tck_host.c" -ldl &
pids+=($!)
"$cc" "${hostflags[@]}" -fsanitize=thread -fPIE -pie -o "$out/ndk-tck-host-tsan" "$here/host/ndk_tck_host.c" -ldl &
pids+=($!)
# broken libraries for the bridge's tests
build libndk_sample_header99 -DSAMPLE_HEADER_VERSION=99u -DSAMPLE_NAME='"ndk-sample header 99"'
printf 'int ndk_tck_nothing_here(void) { return 0; }\n' > "$out/missing_symbol.c"
"$cc" -shared -fPIC -o "$out/libndk_missing_symbol.so" "$out/missing_symbol.c"
printf 'this is not a shared library\n' > "$out/libndk_not_a_library.so"
failed=0
for p in "${pids[@]}"; do
    wait "$p" || failed=1
done
if [[ $failed -ne 0 ]]; then
    echo "build-sample.sh: a build failed (see above)" >&2
    exit 1
fi
echo "build-sample.sh: built $(ls "$out"/*.so | wc -l) libraries and $(ls "$out"/ndk-tck-host* | wc -l) host executables in $out"
