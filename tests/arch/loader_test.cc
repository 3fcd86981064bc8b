#include "arch/loader.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "arch/error.h"
#include "arch/presets.h"
#include "tests/arch/arch_test_util.h"

namespace warpsim::arch {
namespace {

using testing::at;
using ::testing::HasSubstr;
using testing::ScratchDir;

// The InputError message `load` throws; fails the test when it does not throw.
template <typename Load>
std::string error_of(Load load) {
  try {
    load();
  } catch (const InputError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no InputError";
  return {};
}

TEST(ArchLoader, LoadsPresetsByNameShortNameAndAlias) {
  EXPECT_EQ(load_spec("nvidia/h200").source, "nvidia/h200");
  EXPECT_EQ(load_spec("h200").source, "nvidia/h200");
  EXPECT_EQ(load_spec("H200").source, "nvidia/h200");
  EXPECT_EQ(load_spec("h100").source, "nvidia/h100_sxm");
  EXPECT_EQ(load_spec("h100_sxm").source, "nvidia/h100_sxm");
  EXPECT_EQ(load_spec("b200").source, "nvidia/b200");
  EXPECT_EQ(load_spec("a100").source, "nvidia/a100");
  EXPECT_EQ(load_spec("mi300x").source, "amd/mi300x");
  EXPECT_EQ(load_spec("mi300x").spec.name(), "MI300X");
}

TEST(ArchLoader, ChildOverridesBaseAndInheritsTheRest) {
  const LoadedSpec h200 = load_spec("h200");
  EXPECT_EQ(h200.spec.name(), "H200");
  EXPECT_EQ(h200.spec.inherits(), "nvidia/h100_sxm");
  EXPECT_FALSE(h200.spec.abstract());
  EXPECT_EQ(h200.spec.hbm().channels(), 96u);            // H200's own
  EXPECT_EQ(h200.spec.hbm().channel_width_bits(), 64u);  // from H100 SXM
  EXPECT_EQ(h200.spec.sm().sub_partitions(), 4u);        // from the NVIDIA base
  EXPECT_EQ(h200.spec.clocks().vendor_peak_clock_mhz(), 1830);
  EXPECT_EQ(h200.spec.clocks().sm_mhz(), 1960);
  EXPECT_EQ(h200.spec.hbm().timings().burst_length(), 8u);
  EXPECT_EQ(h200.spec.hbm().timings().rcd_cycles(), 45u);
}

TEST(ArchLoader, ProvenanceNamesTheFileAndLineThatSetEachField) {
  const LoadedSpec h200 = load_spec("h200");
  EXPECT_EQ(h200.provenance.origin("hbm.channels"), at("nvidia/h200.textproto", "channels:"));
  EXPECT_EQ(h200.provenance.origin("sm.count"), at("nvidia/h100_sxm.textproto", "count: 132"));
  EXPECT_EQ(h200.provenance.origin("shared_memory.banks"),
            at("nvidia/base.textproto", "banks: 32"));
  EXPECT_EQ(h200.provenance.origin("l1.shared_carveout_kb"),
            at("nvidia/h100_sxm.textproto", "shared_carveout_kb"));
  EXPECT_EQ(h200.provenance.origin("tensor.shapes[wgmma.m64n128k16.f16].n"),
            at("nvidia/h100_sxm.textproto", "n: 128", "wgmma.m64n128k16.f16"));
  EXPECT_EQ(h200.provenance.origin("tensor.dense_flops_per_clk_per_sm[fp8]"),
            at("nvidia/h100_sxm.textproto", "key: \"fp8\""));
  EXPECT_EQ(h200.provenance.origin("abstract"), "");
  EXPECT_EQ(h200.provenance.where("hbm.stacks"),
            " (set at " + at("nvidia/h200.textproto", "stacks:") + ")");
}

TEST(ArchLoader, AbstractBaseIsNeitherListedNorLoadable) {
  const auto names = preset_names();
  EXPECT_EQ(std::count(names.begin(), names.end(), "nvidia/base"), 0);
  EXPECT_THAT(
      error_of([] { load_spec("nvidia/base"); }),
      HasSubstr("architecture 'nvidia/base' is an abstract base (arch/nvidia/base.textproto)"));
}

TEST(ArchLoader, UnknownArchitectureListsWhatExists) {
  const std::string error = error_of([] { load_spec("h900"); });
  EXPECT_THAT(error, HasSubstr("unknown architecture 'h900'"));
  EXPECT_THAT(error, HasSubstr("presets: amd/mi300x, nvidia/a100, nvidia/b200, nvidia/h100_sxm, "
                               "nvidia/h200"));
  EXPECT_THAT(error, HasSubstr("h100"));
}

TEST(ArchLoader, FileOnDiskInheritsAPreset) {
  ScratchDir dir;
  const std::string file =
      dir.write("mine.textproto", "inherits: \"h200\"\nname: \"Mine\"\nsm { count: 144 }\n");
  const LoadedSpec mine = load_spec(file);
  EXPECT_EQ(mine.source, file);
  EXPECT_EQ(mine.spec.name(), "Mine");
  EXPECT_EQ(mine.spec.sm().count(), 144u);
  EXPECT_EQ(mine.spec.hbm().channels(), 96u);
  EXPECT_EQ(mine.provenance.origin("sm.count"), file + ":3");
}

TEST(ArchLoader, FileInheritsAFileRelativeToItself) {
  ScratchDir dir;
  dir.write("bases/base.textproto", "inherits: \"nvidia/h100_sxm\"\nname: \"Base\"\n");
  const std::string file = dir.write(
      "child.textproto", "inherits: \"bases/base.textproto\"\nname: \"Child\"\nl2 { ways: 8 }\n");
  const LoadedSpec child = load_spec(file);
  EXPECT_EQ(child.spec.name(), "Child");
  EXPECT_EQ(child.spec.l2().ways(), 8u);
  EXPECT_EQ(child.spec.l2().slices(), 80u);
  EXPECT_EQ(child.provenance.origin("name"), file + ":2");
}

TEST(ArchLoader, ListsAreReplacedAndMapEntriesReplacedWhole) {
  ScratchDir dir;
  const std::string file =
      dir.write("child.textproto",
                "inherits: \"h100\"\n"
                "l1 { shared_carveout_kb: [0, 100] }\n"
                "tensor {\n"
                "  shapes { key: \"mma.m16n8k16.f16\" value { latency_cycles: 30 } }\n"
                "  dense_flops_per_clk_per_sm { key: \"fp8\" value: 1 }\n"
                "}\n");
  const LoadedSpec child = resolve_spec(file);
  ASSERT_EQ(child.spec.l1().shared_carveout_kb_size(), 2);
  EXPECT_EQ(child.spec.l1().shared_carveout_kb(1), 100u);
  const TensorShape& shape = child.spec.tensor().shapes().at("mma.m16n8k16.f16");
  EXPECT_EQ(shape.latency_cycles(), 30u);
  EXPECT_FALSE(shape.has_m());  // the entry replaced the base's entry as a whole
  EXPECT_EQ(child.spec.tensor().dense_flops_per_clk_per_sm().at("fp8"), 1);
  EXPECT_EQ(child.spec.tensor().dense_flops_per_clk_per_sm().at("fp16"), 4096);
  EXPECT_EQ(child.spec.tensor().shapes().size(), 5u);
  EXPECT_EQ(child.provenance.origin("tensor.shapes[mma.m16n8k16.f16].m"), file + ":4");
  EXPECT_EQ(child.provenance.origin("l1.shared_carveout_kb"), file + ":2");
}

TEST(ArchLoader, InheritanceCycleIsAnError) {
  ScratchDir dir;
  const std::string a = dir.write("a.textproto", "inherits: \"b.textproto\"\n");
  const std::string b = dir.write("b.textproto", "name: \"B\"\ninherits: \"a.textproto\"\n");
  EXPECT_EQ(error_of([&] { load_spec(a); }), b + ":2: inheritance cycle: " + a + " -> " +
                                                 (dir.path() / "b.textproto").string() + " -> " +
                                                 (dir.path() / "a.textproto").string());
  const std::string self = dir.write("self.textproto", "inherits: \"self.textproto\"\n");
  EXPECT_THAT(error_of([&] { load_spec(self); }), HasSubstr("inheritance cycle"));
}

TEST(ArchLoader, MissingBaseIsAnError) {
  ScratchDir dir;
  const std::string file = dir.write("a.textproto", "name: \"A\"\ninherits: \"nope.textproto\"\n");
  EXPECT_EQ(error_of([&] { load_spec(file); }),
            file + ":2: inherits \"nope.textproto\": cannot read architecture file '" +
                (dir.path() / "nope.textproto").string() + "'");
  const std::string preset = dir.write("b.textproto", "inherits: \"h900\"\n");
  EXPECT_THAT(error_of([&] { load_spec(preset); }),
              HasSubstr(preset + ":1: inherits \"h900\": no preset of that name; presets: "));
}

TEST(ArchLoader, MissingOrUnreadableFileIsAnError) {
  ScratchDir dir;
  const std::string missing = (dir.path() / "missing.textproto").string();
  EXPECT_EQ(error_of([&] { load_spec(missing); }),
            "cannot read architecture file '" + missing + "'");
  const std::string directory = (dir.path() / "dir.textproto").string();
  std::filesystem::create_directories(directory);
  EXPECT_EQ(error_of([&] { load_spec(directory); }),
            "cannot read architecture file '" + directory + "'");
}

TEST(ArchLoader, ParseErrorsNameFileLineAndColumn) {
  ScratchDir dir;
  const std::string syntax = dir.write("syntax.textproto", "name: \"X\"\nsm {\n  count: 12\n");
  EXPECT_THAT(error_of([&] { load_spec(syntax); }), HasSubstr(syntax + ":4:1: "));
  const std::string unknown = dir.write("unknown.textproto", "sm {\n  cuont: 3\n}\n");
  EXPECT_EQ(error_of([&] { load_spec(unknown); }),
            unknown + ":2:8: Message type \"warpsim.arch.Sm\" has no field named \"cuont\".");
  // A retired field (sm.scheduler_shared_ctas, now scheduler_shared_warps) is refused, not skipped.
  const std::string retired = dir.write("retired.textproto", "sm { scheduler_shared_ctas: 2 }\n");
  EXPECT_THAT(error_of([&] { load_spec(retired); }),
              HasSubstr(retired + ":1:27: Message type \"warpsim.arch.Sm\" has no field named "
                                  "\"scheduler_shared_ctas\""));
  const std::string type = dir.write("type.textproto", "sm { count: \"many\" }\n");
  EXPECT_THAT(error_of([&] { load_spec(type); }), HasSubstr(type + ":1:13: "));
  const std::string negative = dir.write("negative.textproto", "sm {\n count: -4 }\n");
  EXPECT_THAT(error_of([&] { load_spec(negative); }), HasSubstr(negative + ":2:"));
  const std::string twice = dir.write("twice.textproto", "name: \"A\"\nname: \"B\"\n");
  EXPECT_THAT(error_of([&] { load_spec(twice); }), HasSubstr(twice + ":2:"));
  const std::string bad_enum = dir.write("enum.textproto", "launch {\n  cache_start: TEPID\n}\n");
  EXPECT_EQ(error_of([&] { load_spec(bad_enum); }),
            bad_enum + ":3:1: Unknown enumeration value of \"TEPID\" for field \"cache_start\".");
}

TEST(ArchLoader, ParseErrorInABaseNamesTheBase) {
  ScratchDir dir;
  const std::string base = dir.write("base.textproto", "clocks { sm_mhz: fast }\n");
  const std::string child = dir.write("child.textproto", "inherits: \"base.textproto\"\n");
  EXPECT_THAT(error_of([&] { load_spec(child); }),
              HasSubstr((dir.path() / "base.textproto").string() + ":1:18: "));
  (void)base;
}

TEST(ArchLoader, AbstractFileCannotBeLoaded) {
  ScratchDir dir;
  const std::string file = dir.write("a.textproto", "inherits: \"h200\"\nabstract: true\n");
  EXPECT_EQ(error_of([&] { load_spec(file); }),
            file + ":2: '" + file +
                "' is abstract (a base for other descriptions) and cannot be "
                "loaded");
}

TEST(ArchLoader, OverridesApplyAfterInheritanceAndChecksRunLast) {
  const LoadedSpec spec = load_spec("h200", {"sm.count=144", "l2.ways=32"});
  EXPECT_EQ(spec.spec.sm().count(), 144u);
  EXPECT_EQ(spec.spec.l2().ways(), 32u);
  EXPECT_EQ(spec.provenance.origin("sm.count"), "--set 'sm.count=144'");
  EXPECT_THAT(error_of([] { load_spec("h200", {"l1.line_bytes=96"}); }),
              HasSubstr("architecture 'nvidia/h200' is inconsistent:\n  l1.line_bytes = 96 must "
                        "be a power of two (l1.line_bytes set at --set 'l1.line_bytes=96')"));
}

TEST(ArchLoader, ParseSpecTextWithoutInheritance) {
  Provenance provenance;
  const Spec spec = parse_spec_text("inherits: \"h200\"\nsm { count: 7 }\n", "label", &provenance);
  EXPECT_EQ(spec.sm().count(), 7u);
  EXPECT_FALSE(spec.has_hbm());
  EXPECT_EQ(provenance.origin("sm.count"), "label:2");
  EXPECT_EQ(provenance.size(), 2u);
}

}  // namespace
}  // namespace warpsim::arch
