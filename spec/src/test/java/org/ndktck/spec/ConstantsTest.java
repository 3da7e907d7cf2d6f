package org.ndktck.spec;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every constant of the spec equals the header value of digest section 17 (ndkpi.h, ndkinfo.h,
 * ntstatus.h): one assertion per constant, named by its C name. The tables below are the specification;
 * completeness tests make sure no constant of the spec goes unchecked.
 */
class ConstantsTest {

    /** C name, value: NDK_MR_FLAG_*, NDK_OP_FLAG_*, NDK_ADAPTER_FLAG_*, NDK_CQ_NOTIFY_*. */
    private static final String FLAGS = """
            NDK_MR_FLAG_ALLOW_LOCAL_READ 0x00000000
            NDK_MR_FLAG_ALLOW_LOCAL_WRITE 0x00000001
            NDK_MR_FLAG_ALLOW_REMOTE_READ 0x00000002
            NDK_MR_FLAG_ALLOW_REMOTE_WRITE 0x00000005
            NDK_MR_FLAG_RDMA_READ_SINK 0x00000008
            NDK_OP_FLAG_SILENT_SUCCESS 0x00000001
            NDK_OP_FLAG_READ_FENCE 0x00000002
            NDK_OP_FLAG_SEND_AND_SOLICIT_EVENT 0x00000004
            NDK_OP_FLAG_ALLOW_REMOTE_READ 0x00000008
            NDK_OP_FLAG_ALLOW_LOCAL_WRITE 0x00000010
            NDK_OP_FLAG_ALLOW_REMOTE_WRITE 0x00000030
            NDK_OP_FLAG_INLINE 0x00000040
            NDK_OP_FLAG_RDMA_READ_SINK 0x00000080
            NDK_OP_FLAG_RDMA_READ_LOCAL_INVALIDATE 0x00000100
            NDK_OP_FLAG_DEFER 0x00000200
            NDK_ADAPTER_FLAG_IN_ORDER_DMA_SUPPORTED 0x00000001
            NDK_ADAPTER_FLAG_RDMA_READ_SINK_NOT_REQUIRED 0x00000002
            NDK_ADAPTER_FLAG_CQ_INTERRUPT_MODERATION_SUPPORTED 0x00000004
            NDK_ADAPTER_FLAG_MULTI_ENGINE_SUPPORTED 0x00000008
            NDK_ADAPTER_FLAG_RDMA_READ_LOCAL_INVALIDATE_SUPPORTED 0x00000010
            NDK_ADAPTER_FLAG_CQ_RESIZE_SUPPORTED 0x00000100
            NDK_ADAPTER_FLAG_LOOPBACK_CONNECTIONS_SUPPORTED 0x00010000
            NDK_CQ_NOTIFY_ERRORS 0
            NDK_CQ_NOTIFY_ANY 1
            NDK_CQ_NOTIFY_SOLICITED 2
            """;

    /** C name, Java enum constant, value. */
    private static final String ENUMS = """
            NdkObjectTypeUndefined NdkObjectType.UNDEFINED 0
            NdkObjectTypeAdapter NdkObjectType.ADAPTER 1
            NdkObjectTypeQp NdkObjectType.QP 2
            NdkObjectTypeCq NdkObjectType.CQ 3
            NdkObjectTypeMr NdkObjectType.MR 4
            NdkObjectTypeMw NdkObjectType.MW 5
            NdkObjectTypePd NdkObjectType.PD 6
            NdkObjectTypeSharedEndpoint NdkObjectType.SHARED_ENDPOINT 7
            NdkObjectTypeConnector NdkObjectType.CONNECTOR 8
            NdkObjectTypeListener NdkObjectType.LISTENER 9
            NdkObjectTypeSrq NdkObjectType.SRQ 10
            NdkObjectTypeMax NdkObjectType.MAX 11
            NdkOperationTypeReceive NdkOperationType.RECEIVE 1
            NdkOperationTypeSend NdkOperationType.SEND 2
            NdkOperationTypeFastRegister NdkOperationType.FAST_REGISTER 4
            NdkOperationTypeBind NdkOperationType.BIND 8
            NdkOperationTypeInvalidate NdkOperationType.INVALIDATE 16
            NdkOperationTypeRead NdkOperationType.READ 32
            NdkOperationTypeWrite NdkOperationType.WRITE 64
            NdkOperationTypeReceiveAndInvalidate NdkOperationType.RECEIVE_AND_INVALIDATE 32769
            NdkUndefined NdkRdmaTechnology.UNDEFINED 0
            NdkiWarp NdkRdmaTechnology.IWARP 1
            NdkInfiniBand NdkRdmaTechnology.INFINIBAND 2
            NdkRoCE NdkRdmaTechnology.ROCE 3
            NdkRoCEv2 NdkRdmaTechnology.ROCE_V2 4
            NdkMaxTechnology NdkRdmaTechnology.MAX_TECHNOLOGY 5
            """;

    /** NTSTATUS name, value (public ntstatus.h). */
    private static final String STATUSES = """
            STATUS_SUCCESS 0x00000000
            STATUS_PENDING 0x00000103
            STATUS_BUFFER_OVERFLOW 0x80000005
            STATUS_ACCESS_VIOLATION 0xC0000005
            STATUS_INVALID_PARAMETER 0xC000000D
            STATUS_BUFFER_TOO_SMALL 0xC0000023
            STATUS_INSUFFICIENT_RESOURCES 0xC000009A
            STATUS_INTERNAL_ERROR 0xC00000E5
            STATUS_CANCELLED 0xC0000120
            STATUS_REMOTE_RESOURCES 0xC000013D
            STATUS_CONNECTION_INVALID 0xC000023A
            STATUS_IMPLEMENTATION_LIMIT 0xC000042B
            STATUS_TIMEOUT 0x00000102
            STATUS_DEVICE_BUSY 0x80000011
            STATUS_UNSUCCESSFUL 0xC0000001
            STATUS_NOT_IMPLEMENTED 0xC0000002
            STATUS_INVALID_HANDLE 0xC0000008
            STATUS_INVALID_DEVICE_REQUEST 0xC0000010
            STATUS_NO_MEMORY 0xC0000017
            STATUS_DATA_ERROR 0xC000003E
            STATUS_DEVICE_NOT_READY 0xC00000A3
            STATUS_IO_TIMEOUT 0xC00000B5
            STATUS_NOT_SUPPORTED 0xC00000BB
            STATUS_INVALID_ADDRESS 0xC0000141
            STATUS_INVALID_DEVICE_STATE 0xC0000184
            STATUS_IO_DEVICE_ERROR 0xC0000185
            STATUS_INVALID_BUFFER_SIZE 0xC0000206
            STATUS_CONNECTION_DISCONNECTED 0xC000020C
            STATUS_CONNECTION_RESET 0xC000020D
            STATUS_CONNECTION_REFUSED 0xC0000236
            STATUS_REQUEST_ABORTED 0xC0000240
            STATUS_CONNECTION_ABORTED 0xC0000241
            """;

    /** Derived masks: not header constants, checked on their own below. */
    private static final Set<String> DERIVED = Set.of("DEFINED_BITS", "FAST_REGISTER_DEFINED_BITS");

    private static final List<Class<?>> FLAG_CLASSES =
            List.of(NdkMrFlags.class, NdkOpFlags.class, NdkAdapterFlags.class, NdkCqNotify.class);

    private static Stream<String[]> rows(String table) {
        return table.lines().map(String::strip).filter(l -> !l.isEmpty()).map(l -> l.split("\\s+"));
    }

    private static int value(String text) {
        return text.startsWith("0x") ? Integer.parseUnsignedInt(text.substring(2), 16) : Integer.parseInt(text);
    }

    /** The Java class and field name of a C flag name. */
    private static Field flagField(String cName) throws NoSuchFieldException {
        String[][] prefixes = {
                {"NDK_MR_FLAG_", "NdkMrFlags"}, {"NDK_OP_FLAG_", "NdkOpFlags"},
                {"NDK_ADAPTER_FLAG_", "NdkAdapterFlags"}, {"NDK_CQ_NOTIFY_", "NdkCqNotify"}};
        for (String[] p : prefixes) {
            if (cName.startsWith(p[0])) {
                Class<?> owner = FLAG_CLASSES.stream().filter(c -> c.getSimpleName().equals(p[1])).findFirst().orElseThrow();
                return owner.getField(cName.substring(p[0].length()));
            }
        }
        throw new IllegalArgumentException("no class for " + cName);
    }

    static Stream<Arguments> flags() {
        return rows(FLAGS).map(r -> Arguments.of(r[0], r[1]));
    }

    static Stream<Arguments> enums() {
        return rows(ENUMS).map(r -> Arguments.of(r[0], r[1], r[2]));
    }

    static Stream<Arguments> statuses() {
        return rows(STATUSES).map(r -> Arguments.of(r[0], r[1]));
    }

    @ParameterizedTest(name = "{0} = {1}")
    @MethodSource("flags")
    void flagHasTheHeaderValue(String cName, String expected) throws Exception {
        Field f = flagField(cName);
        assertThat(f.getType()).isEqualTo(int.class);
        assertThat(f.getInt(null)).as(cName).isEqualTo(value(expected));
    }

    @ParameterizedTest(name = "{0} = {2}")
    @MethodSource("enums")
    void enumConstantHasTheHeaderValue(String cName, String javaName, String expected) throws Exception {
        String[] parts = javaName.split("\\.");
        Class<?> type = Class.forName("org.ndktck.spec." + parts[0]);
        Object constant = Arrays.stream(type.getEnumConstants())
                .filter(c -> ((Enum<?>) c).name().equals(parts[1])).findFirst().orElseThrow();
        assertThat((int) type.getMethod("value").invoke(constant)).as(cName).isEqualTo(value(expected));
    }

    @ParameterizedTest(name = "{0} = {1}")
    @MethodSource("statuses")
    void ntStatusHasTheHeaderValue(String name, String expected) throws Exception {
        NtStatus s = (NtStatus) NtStatus.class.getField(name).get(null);
        assertThat(s.code()).as(name).isEqualTo(value(expected));
        assertThat(s.name()).isEqualTo(name);
    }

    @Test
    void everyFlagConstantOfTheSpecIsInTheTable() throws Exception {
        Set<String> inTable = new TreeSet<>();
        for (String[] r : rows(FLAGS).toList()) {
            Field f = flagField(r[0]);
            inTable.add(f.getDeclaringClass().getSimpleName() + "." + f.getName());
        }
        Set<String> inSpec = new TreeSet<>();
        for (Class<?> c : FLAG_CLASSES) {
            for (Field f : c.getFields()) {
                if (Modifier.isStatic(f.getModifiers()) && f.getType() == int.class && !DERIVED.contains(f.getName())) {
                    inSpec.add(c.getSimpleName() + "." + f.getName());
                }
            }
        }
        assertThat(inTable).isEqualTo(inSpec);
    }

    @Test
    void everyEnumConstantOfTheSpecIsInTheTable() {
        Set<String> inTable = rows(ENUMS).map(r -> r[1]).collect(Collectors.toCollection(TreeSet::new));
        Set<String> inSpec = Stream.of(NdkObjectType.values(), NdkOperationType.values(), NdkRdmaTechnology.values())
                .flatMap(Arrays::stream)
                .map(e -> e.getDeclaringClass().getSimpleName() + "." + e.name())
                .collect(Collectors.toCollection(TreeSet::new));
        assertThat(inTable).isEqualTo(inSpec);
    }

    @Test
    void everyNtStatusConstantIsInTheTable() {
        Set<String> inTable = rows(STATUSES).map(r -> r[0]).collect(Collectors.toCollection(TreeSet::new));
        Set<String> inSpec = Arrays.stream(NtStatus.class.getFields())
                .filter(f -> f.getType() == NtStatus.class && Modifier.isStatic(f.getModifiers()))
                .map(Field::getName).collect(Collectors.toCollection(TreeSet::new));
        assertThat(inTable).isEqualTo(inSpec);
    }

    @Test
    void derivedMasksAreTheUnionOfTheirFlags() {
        assertThat(NdkMrFlags.DEFINED_BITS).isEqualTo(0xF);
        assertThat(NdkOpFlags.FAST_REGISTER_DEFINED_BITS).isEqualTo(0x1 | 0x2 | 0x8 | 0x30 | 0x80 | 0x200);
    }

    @Test
    void compositeFlagsContainTheirParts() {
        assertThat(NdkMrFlags.allowsRemoteWrite(0x5)).isTrue();
        assertThat(NdkMrFlags.allowsRemoteWrite(0x4)).isFalse();
        assertThat(NdkMrFlags.allowsRemoteWrite(0x1)).isFalse();
        assertThat(NdkOpFlags.allowsRemoteWrite(0x30)).isTrue();
        assertThat(NdkOpFlags.allowsRemoteWrite(0x20)).isFalse();
        assertThat(NdkOpFlags.allowsRemoteWrite(0x10)).isFalse();
    }

    @Test
    void flagsPrintAsTheirNames() {
        assertThat(NdkMrFlags.describe(0x3)).isEqualTo("NDK_MR_FLAG_ALLOW_LOCAL_WRITE|NDK_MR_FLAG_ALLOW_REMOTE_READ (0x00000003)");
        assertThat(NdkMrFlags.describe(0x5)).isEqualTo("NDK_MR_FLAG_ALLOW_REMOTE_WRITE (0x00000005)");
        assertThat(NdkMrFlags.describe(0x0)).isEqualTo("NDK_MR_FLAG_ALLOW_LOCAL_READ (0x00000000)");
        assertThat(NdkMrFlags.describe(0x14)).isEqualTo("undefined 0x00000014 (0x00000014)");
        assertThat(NdkMrFlags.describe(0xA)).isEqualTo("NDK_MR_FLAG_ALLOW_REMOTE_READ|NDK_MR_FLAG_RDMA_READ_SINK (0x0000000A)");
        assertThat(NdkOpFlags.describe(0)).isEqualTo("none (0x00000000)");
        assertThat(NdkOpFlags.describe(0x39)).isEqualTo("NDK_OP_FLAG_SILENT_SUCCESS|NDK_OP_FLAG_ALLOW_REMOTE_READ|NDK_OP_FLAG_ALLOW_REMOTE_WRITE (0x00000039)");
        assertThat(NdkOpFlags.describe(0x10)).isEqualTo("NDK_OP_FLAG_ALLOW_LOCAL_WRITE (0x00000010)");
        assertThat(NdkOpFlags.describe(0x20)).isEqualTo("undefined 0x00000020 (0x00000020)");
        assertThat(NdkOpFlags.describe(0x240)).isEqualTo("NDK_OP_FLAG_INLINE|NDK_OP_FLAG_DEFER (0x00000240)");
    }

    @Test
    void layoutConstantsMatchTheHeader() {
        assertThat(NdkLogicalAddressMapping.HEADER_BYTES).isEqualTo(16);
        assertThat(NdkLogicalAddressMapping.ENTRY_BYTES).isEqualTo(8);
        assertThat(NdkLogicalAddressMapping.bytesFor(3)).isEqualTo(40);
        assertThat(NdkVersion.V1_1).isEqualTo(new NdkVersion(1, 1));
        assertThat(NdkVersion.V1_2).isEqualTo(new NdkVersion(1, 2));
    }
}
