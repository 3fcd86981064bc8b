#include "traces/ncu/source_page.h"

#include <gtest/gtest.h>

#include "arch/error.h"
#include "tests/traces/ncu/fixtures.h"
#include "traces/ncu/report.h"

namespace warpsim::traces::ncu {
namespace {

using testing::fixtures;
using testing::h200_reference;
using testing::read_file;

TEST(NcuSourcePage, ReadsTheSassFixture) {
  const std::string path = fixtures() + "h200-shared-stride/src_sass.csv";
  const SourcePage page = parse_source_page(read_file(path), path);
  ASSERT_EQ(page.kernels.size(), 1u);
  const SourceKernel& k = page.kernels[0];
  EXPECT_EQ(k.name, "k(const float *, float *, int)");
  ASSERT_EQ(k.rows.size(), 40u);  // 26 executed, the rest unreachable (BRA, NOP padding).
  EXPECT_EQ(k.rows[0].address, 0x7fac177a0000u);
  EXPECT_EQ(k.rows[0].sass, "LDC R1, c[0x0][0x28]");
  EXPECT_EQ(k.base_address(), 0x7fac177a0000u);
  EXPECT_EQ(k.number(k.rows[0], "Instructions Executed"), 32768.0);
  EXPECT_EQ(k.text(k.rows[0], "Address Space"), "-");
  EXPECT_FALSE(k.number(k.rows[0], "Address Space").has_value());
  // The per-PC executed counts equal the report's inst_executed instances.
  const Report report = load_ncu_report(fixtures() + "h200-shared-stride/report.ncu-rep");
  const ReportMetric* inst = report.kernels[0].metric("inst_executed");
  ASSERT_NE(inst, nullptr);
  ASSERT_EQ(inst->instances.size(), 26u);
  const uint64_t report_base =
      *report.kernels[0].number("launch__function_pcs") == 1
          ? report.kernels[0].metric("launch__function_pcs")->instances[0].value.integer
          : 0;
  size_t executed = 0;
  for (const SourceRow& row : k.rows) {
    const double n = k.number(row, "Instructions Executed").value_or(0);
    if (n == 0) continue;
    ASSERT_LT(executed, inst->instances.size());
    EXPECT_EQ(inst->instances[executed].key.integer - report_base, row.address - k.base_address());
    EXPECT_EQ(inst->instances[executed].value.as_double(), n);
    ++executed;
  }
  EXPECT_EQ(executed, 26u);
}

TEST(NcuSourcePage, ReadsTheCombinedCudaAndSassView) {
  const std::string path = fixtures() + "h200-shared-stride/src_cs.csv";
  const SourcePage page = parse_source_page(read_file(path), path);
  ASSERT_EQ(page.kernels.size(), 1u);
  EXPECT_EQ(page.kernels[0].rows.size(), 40u);
  EXPECT_EQ(page.kernels[0].rows[1].sass, "S2R R6, SR_TID.X");
}

TEST(NcuSourcePage, ReadsEveryKernelOfTheH200Reference) {
  const std::string path = h200_reference() + "source_sass.csv";
  const SourcePage page = parse_source_page(read_file(path), path);
  EXPECT_EQ(page.kernels.size(), 107u);  // ncu prints 45 of the 62 listings twice.
  for (const SourceKernel& k : page.kernels) EXPECT_FALSE(k.rows.empty()) << k.name;
  const Report report = load_ncu_report(h200_reference() + "report.ncu-rep");
  for (const ReportKernel& k : report.kernels) {
    const SourceKernel* listing =
        find_listing(page, ncu_display_name(k.demangled_name), *k.number("inst_executed"));
    ASSERT_NE(listing, nullptr) << k.demangled_name;
  }
}

// PyTorch's kernels: the raw page drops inner namespaces that the source page prints
// (validate/reference/h200/foreign: "at::vectorized_elementwise_kernel<4, at::CUDAFunctor_add<
// float>, …>" against "at::native::vectorized_elementwise_kernel<(int)4, at::native::…>").
TEST(NcuSourcePage, FindsAListingNamedWithMoreQualifiers) {
  const std::string text =
      "\"Kernel Name\",\"void at::native::<unnamed>::k<(int)4, at::native::F<float>, "
      "cub::detail::P<float>::Q>(int, T2)\",\n"
      "\"Address\",\"Source\",\"Instructions Executed\",\n"
      "\"0x7f0000000000\",\"S2R R0, SR_TID.X\",\"6\",\n"
      "\"0x7f0000000010\",\"EXIT\",\"4\",\n";
  const SourcePage page = parse_source_page(text, "s.csv");
  const std::string raw_name = "void at::<unnamed>::k<4, at::F<float>, cub::P<float>::Q>(int, T2)";
  EXPECT_NE(find_listing(page, raw_name, 10), nullptr);
  EXPECT_EQ(find_listing(page, raw_name, 11), nullptr);  // the counts must agree as well
  EXPECT_EQ(find_listing(page, "void at::<unnamed>::g<4>(int, T2)", 10), nullptr);
}

TEST(NcuSourcePage, Errors) {
  EXPECT_THROW(parse_source_page("", "s.csv"), InputError);
  EXPECT_THROW(parse_source_page("\"0x10\",\"NOP\"\n", "s.csv"), InputError);
  try {
    parse_source_page("\"Kernel Name\",\"k\"\n\"Address\",\"Source\"\n\"zz\",\"NOP\"\n", "s.csv");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("s.csv:3"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace warpsim::traces::ncu
