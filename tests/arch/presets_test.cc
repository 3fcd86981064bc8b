#include "arch/presets.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cctype>
#include <sstream>

#include "tests/arch/arch_test_util.h"

namespace warpsim::arch {
namespace {

using ::testing::ElementsAre;
using ::testing::Pair;
using testing::read_text;
using testing::source_dir;

// Whether a comment is a `# source:` comment with a tag: [pub], [2nd], [der], [meas] or [assumed]
// (closed by "]", ":" or a space, e.g. "[pub: Luo et al. 2024]").
bool is_source(const std::string& comment) {
  if (comment.find("source:") == std::string::npos) return false;
  for (const std::string tag : {"[pub", "[2nd", "[der", "[meas", "[assumed"}) {
    for (auto pos = comment.find(tag); pos != std::string::npos; pos = comment.find(tag, pos + 1)) {
      const char next = pos + tag.size() < comment.size() ? comment[pos + tag.size()] : '\0';
      if (next == ']' || next == ':' || next == ' ') return true;
    }
  }
  return false;
}

// Whether the code part of a line (comment removed) sets a number: a ':' outside quoted strings
// followed by a numeric literal.
bool sets_number(const std::string& code) {
  bool quoted = false;
  for (std::size_t i = 0; i < code.size(); ++i) {
    if (code[i] == '"') quoted = !quoted;
    if (quoted || code[i] != ':') continue;
    std::size_t j = code.find_first_not_of(" \t", i + 1);
    if (j == std::string::npos) return false;
    if (code[j] == '-' || code[j] == '+') ++j;
    if (j < code.size() && code[j] == '.') ++j;
    if (j < code.size() && std::isdigit(static_cast<unsigned char>(code[j])) != 0) return true;
  }
  return false;
}

// Lines of a preset that set a number without a tagged `# source:` comment on the same line or on
// the comment line directly above. Returned as "line: text".
std::vector<std::string> unsourced_numbers(const std::string& text) {
  std::vector<std::string> missing;
  std::istringstream in(text);
  std::string line;
  std::string previous;
  for (int number = 1; std::getline(in, line); ++number) {
    const auto hash = line.find('#');
    const std::string code = line.substr(0, hash);
    const std::string comment = hash == std::string::npos ? std::string() : line.substr(hash);
    const auto first = previous.find_first_not_of(" \t");
    const bool above = first != std::string::npos && previous[first] == '#' && is_source(previous);
    if (sets_number(code) && !is_source(comment) && !above) {
      missing.push_back(std::to_string(number) + ": " + line);
    }
    previous = line;
  }
  return missing;
}

TEST(ArchPresets, SourceCheckerFindsUnsourcedNumbers) {
  EXPECT_THAT(
      unsourced_numbers("sm {\n"
                        "  count: 132  # source: HARDWARE.md [pub]\n"
                        "  # source: [der] from the peaks\n"
                        "  warp_size: 32\n"
                        "  sub_partitions: 4\n"
                        "  issue_width_per_scheduler: 1  # source: a guess\n"
                        "  scheduler_policy: \"gto2\"\n"
                        "}\n"
                        "dense { key: \"fp8\" value: 8192 }\n"
                        "x: .5  # source: [assumed]\n"
                        "y: -1  # [pub]\n"),
      ElementsAre("5:   sub_partitions: 4", "6:   issue_width_per_scheduler: 1  # source: a guess",
                  "9: dense { key: \"fp8\" value: 8192 }", "11: y: -1  # [pub]"));
}

TEST(ArchPresets, EveryNumberInEveryPresetHasASource) {
  ASSERT_FALSE(preset_files().empty());
  for (const auto& preset : preset_files()) {
    EXPECT_THAT(unsourced_numbers(std::string(preset.text)), ElementsAre()) << preset.path;
  }
}

TEST(ArchPresets, EmbeddedFilesAreTheFilesOfTheSourceTree) {
  std::vector<std::string> on_disk;
  const auto root = source_dir() / "arch";
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
    if (entry.path().extension() == ".textproto") {
      on_disk.push_back(entry.path().lexically_relative(root).generic_string());
    }
  }
  std::sort(on_disk.begin(), on_disk.end());
  std::vector<std::string> embedded;
  for (const auto& preset : preset_files()) {
    embedded.push_back(preset.path);
    EXPECT_EQ(std::string(preset.text), read_text(root / preset.path)) << preset.path;
  }
  EXPECT_EQ(embedded, on_disk);
  EXPECT_THAT(embedded, ElementsAre("amd/mi300x.textproto", "nvidia/a100.textproto",
                                    "nvidia/b200.textproto", "nvidia/base.textproto",
                                    "nvidia/h100_sxm.textproto", "nvidia/h200.textproto"));
}

TEST(ArchPresets, NamesExcludeAbstractBases) {
  EXPECT_THAT(preset_names(), ElementsAre("amd/mi300x", "nvidia/a100", "nvidia/b200",
                                          "nvidia/h100_sxm", "nvidia/h200"));
}

TEST(ArchPresets, ShortNamesAndAliases) {
  EXPECT_THAT(preset_aliases(),
              ElementsAre(Pair("a100", "nvidia/a100"), Pair("a100_sxm", "nvidia/a100"),
                          Pair("b200", "nvidia/b200"), Pair("h100", "nvidia/h100_sxm"),
                          Pair("h100_sxm", "nvidia/h100_sxm"), Pair("h100_sxm5", "nvidia/h100_sxm"),
                          Pair("h200", "nvidia/h200"), Pair("h200_sxm", "nvidia/h200"),
                          Pair("mi300x", "amd/mi300x")));
  ASSERT_NE(find_preset("MI300X"), nullptr);
  EXPECT_EQ(find_preset("MI300X")->name, "amd/mi300x");
  EXPECT_EQ(find_preset("h100")->path, "nvidia/h100_sxm.textproto");
  EXPECT_TRUE(find_preset("nvidia/base")->abstract);
  EXPECT_EQ(find_preset("base"), nullptr);
  EXPECT_EQ(find_preset("h900"), nullptr);
  EXPECT_EQ(find_preset("h200.textproto"), nullptr);
}

}  // namespace
}  // namespace warpsim::arch
