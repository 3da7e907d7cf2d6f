package org.ndktck.reference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.ndktck.spec.HostMemory;
import org.ndktck.spec.InvalidSettingException;
import org.ndktck.spec.NdkAdapter;
import org.ndktck.spec.NdkAdapterFlags;
import org.ndktck.spec.NdkAdapterInfo;
import org.ndktck.spec.NdkObjectType;
import org.ndktck.spec.NdkVersion;
import org.ndktck.spec.Providers;

class SettingsTest {

    @Test
    void theReferenceProviderIsFoundByItsNameThroughServiceLoader() {
        assertThat(Providers.find("reference", getClass().getClassLoader()))
                .get().isInstanceOf(ReferenceProvider.class);
    }

    @Test
    void effectiveSettingsListEveryKeyWithItsDefault() {
        Map<String, String> effective = new ReferenceProvider().configure(Map.of()).effectiveSettings();
        assertThat(effective).containsExactly(
                Map.entry("completion", "inline"), Map.entry("readSinkNotRequired", "true"),
                Map.entry("ndkVersion", "1.2"), Map.entry("pageSize", "4096"),
                Map.entry("frmrPageCount", "1048576"), Map.entry("maxRegistrationSize", "1099511627776"),
                Map.entry("maxObjects", "65536"), Map.entry("maxSge", "16"), Map.entry("seed", "0"),
                Map.entry("transport", "infiniband"));
    }

    @Test
    void theTransportSettingIsWhatTheAdapterDeclares() {
        NdkAdapter iwarp = new ReferenceProvider().configure(Map.of("transport", "iwarp")).openAdapter(new HostMemory(4096));
        assertThat(iwarp.rdmaTechnology()).isEqualTo(org.ndktck.spec.NdkRdmaTechnology.IWARP);
        NdkAdapter byDefault = new ReferenceProvider().configure(Map.of()).openAdapter(new HostMemory(4096));
        assertThat(byDefault.rdmaTechnology()).isEqualTo(org.ndktck.spec.NdkRdmaTechnology.INFINIBAND);
        assertThat(new ReferenceProvider().configure(Map.of("transport", "rocev2")).effectiveSettings())
                .containsEntry("transport", "rocev2");
        assertThatThrownBy(() -> new ReferenceProvider().configure(Map.of("transport", "ethernet")))
                .isInstanceOf(InvalidSettingException.class).hasMessageContaining("infiniband, roce, rocev2 or iwarp");
    }

    @Test
    void everySettingIsApplied() {
        Map<String, String> s = new HashMap<>();
        s.put("completion", "mixed");
        s.put("readSinkNotRequired", "false");
        s.put("ndkVersion", "1.1");
        s.put("pageSize", "16384");
        s.put("frmrPageCount", "0x100");
        s.put("maxRegistrationSize", "18446744073709551615");
        s.put("maxObjects", "7");
        s.put("seed", "-5");
        var factory = new ReferenceProvider().configure(s);
        assertThat(factory.effectiveSettings()).containsEntry("completion", "mixed")
                .containsEntry("frmrPageCount", "256").containsEntry("maxRegistrationSize", "18446744073709551615")
                .containsEntry("seed", "-5").containsEntry("pageSize", "16384");
        NdkAdapter adapter = factory.openAdapter(new HostMemory(16384));
        NdkAdapterInfo info = adapter.queryAdapterInfo();
        assertThat(info.version()).isEqualTo(NdkVersion.V1_1);
        assertThat(info.hasFlag(NdkAdapterFlags.RDMA_READ_SINK_NOT_REQUIRED)).isFalse();
        assertThat(info.hasFlag(NdkAdapterFlags.RDMA_READ_LOCAL_INVALIDATE_SUPPORTED)).isFalse();
        assertThat(info.frmrPageCount()).isEqualTo(256);
        assertThat(info.maxRegistrationSize()).isEqualTo(-1L);
        assertThat(adapter.pageSize()).isEqualTo(16384);
        assertThat(adapter.header().objectType()).isEqualTo(NdkObjectType.ADAPTER);
        assertThat(adapter.header().version()).isEqualTo(NdkVersion.V1_1);
        adapter.close();
    }

    @Test
    void defaultAdapterInfoIsFilledSensibly() {
        NdkAdapter adapter = new ReferenceProvider().configure(Map.of()).openAdapter(new HostMemory(4096));
        NdkAdapterInfo info = adapter.queryAdapterInfo();
        assertThat(info.version()).isEqualTo(NdkVersion.V1_2);
        assertThat(info.hasFlag(NdkAdapterFlags.RDMA_READ_SINK_NOT_REQUIRED)).isTrue();
        assertThat(info.hasFlag(NdkAdapterFlags.RDMA_READ_LOCAL_INVALIDATE_SUPPORTED)).isTrue();
        assertThat(info.hasFlag(NdkAdapterFlags.LOOPBACK_CONNECTIONS_SUPPORTED)).isTrue();
        assertThat(info.unsignedFrmrPageCount()).isEqualTo(1L << 20);
        assertThat(info.maxRegistrationSize()).isEqualTo(1L << 40);
        assertThat(info.maxInitiatorRequestSge()).isPositive();
        assertThat(info.maxReceiveRequestSge()).isPositive();
        assertThat(info.maxReadRequestSge()).isPositive();
        assertThat(info.maxTransferLength()).isPositive();
        assertThat(info.maxInlineDataSize()).isPositive();
        assertThat(info.maxCqDepth()).isPositive();
        assertThat(info.maxInitiatorQueueDepth()).isPositive();
        assertThat(info.maxReceiveQueueDepth()).isPositive();
        assertThat(info.maxInboundReadLimit()).isPositive();
        assertThat(info.maxOutboundReadLimit()).isPositive();
        adapter.close();
    }

    @ParameterizedTest
    @CsvSource(delimiter = ';', value = {
        "completion;sometimes;completion=sometimes: allowed is inline, pending or mixed",
        "readSinkNotRequired;yes;readSinkNotRequired=yes: allowed is true or false",
        "ndkVersion;2.0;ndkVersion=2.0: allowed is 1.1 or 1.2",
        "pageSize;5000;pageSize=5000: allowed is a power of two",
        "pageSize;2048;pageSize=2048: allowed is a power of two",
        "pageSize;-4096;pageSize=-4096",
        "frmrPageCount;15;frmrPageCount=15: allowed is an integer from 16",
        "frmrPageCount;4294967296;frmrPageCount=4294967296",
        "maxRegistrationSize;0;maxRegistrationSize=0",
        "maxRegistrationSize;18446744073709551616;maxRegistrationSize=18446744073709551616",
        "maxObjects;0;maxObjects=0",
        "maxObjects;2147483648;maxObjects=2147483648",
        "seed;abc;seed=abc",
        "colour;blue;unknown setting colour=blue: known settings are completion",
    })
    void badSettingsGiveOneClearLine(String key, String value, String message) {
        assertThatThrownBy(() -> new ReferenceProvider().configure(Map.of(key, value)))
                .isInstanceOf(InvalidSettingException.class)
                .hasMessageContaining(message)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }

    @Test
    void aNullSettingsMapIsADocumentedNullPointerException() {
        assertThatThrownBy(() -> new ReferenceProvider().configure(null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void aMissingValueIsAnInvalidSetting() {
        Map<String, String> s = new HashMap<>();
        s.put("seed", null);
        assertThatThrownBy(() -> new ReferenceProvider().configure(s)).isInstanceOf(InvalidSettingException.class)
                .hasMessageContaining("seed");
    }

    @Test
    void memoryOfAnotherPageSizeIsRefused() {
        var factory = new ReferenceProvider().configure(Map.of("pageSize", "8192"));
        assertThatThrownBy(() -> factory.openAdapter(new HostMemory(4096)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("8192");
    }

    @Test
    void settingDescriptionsNameEveryKey() {
        assertThat(new ReferenceProvider().settingDescriptions()).containsOnlyKeys("completion",
                "readSinkNotRequired", "ndkVersion", "pageSize", "frmrPageCount", "maxRegistrationSize",
                "maxObjects", "maxSge", "seed", "transport");
    }

    @Test
    void maxSgeSetsTheThreeSgeLimitsAndBoundsCreateQp() {
        var info = new ReferenceProvider().configure(Map.of("maxSge", "32")).openAdapter(new HostMemory(4096)).queryAdapterInfo();
        assertThat(info.maxInitiatorRequestSge()).isEqualTo(32);
        assertThat(info.maxReceiveRequestSge()).isEqualTo(32);
        assertThat(info.maxReadRequestSge()).isEqualTo(32);
        assertThatThrownBy(() -> new ReferenceProvider().configure(Map.of("maxSge", "0")))
                .isInstanceOf(org.ndktck.spec.InvalidSettingException.class).hasMessageContaining("maxSge");
        assertThatThrownBy(() -> new ReferenceProvider().configure(Map.of("maxSge", "1025")))
                .isInstanceOf(org.ndktck.spec.InvalidSettingException.class).hasMessageContaining("maxSge");
    }
}
