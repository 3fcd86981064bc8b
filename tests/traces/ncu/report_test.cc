#include "traces/ncu/report.h"

#include <gtest/gtest.h>

#include <boost/iostreams/copy.hpp>
#include <boost/iostreams/device/array.hpp>
#include <boost/iostreams/device/back_inserter.hpp>
#include <boost/iostreams/filter/zstd.hpp>
#include <boost/iostreams/filtering_stream.hpp>
#include <cmath>

#include "arch/error.h"
#include "tests/traces/ncu/fixtures.h"
#include "traces/ncu/csv.h"
#include "traces/ncu/raw_page.h"

namespace warpsim::traces::ncu {
namespace {

using testing::fixtures;
using testing::h200_reference;
using testing::read_file;

// True when `csv` (as printed, 2 decimals or an integer) is `value` rounded to CSV precision.
bool equal_to_csv_precision(double value, std::string_view csv) {
  const auto printed = parse_ncu_number(csv);
  if (!printed) return false;
  const size_t dot = csv.find('.');
  const size_t decimals = dot == std::string_view::npos ? 0 : csv.size() - dot - 1;
  const double half_ulp = 0.5 * std::pow(10.0, -static_cast<double>(decimals));
  return std::fabs(value - *printed) <= half_ulp * 1.0001 + std::fabs(value) * 1e-12;
}

// Compares every numeric metric of a raw page (base units) with the report's values.
void expect_report_matches_csv(const Report& report, const RawPage& page, size_t min_compared,
                               std::string_view prefix = {}) {
  ASSERT_EQ(report.kernels.size(), page.records.size());
  size_t compared = 0;
  for (size_t k = 0; k < page.records.size(); ++k) {
    const ReportKernel& kernel = report.kernels[k];
    const RawRecord& record = page.records[k];
    EXPECT_EQ(record.text("Kernel Name"), ncu_display_name(kernel.demangled_name));
    EXPECT_EQ(record.text("Block Size"), "(" + std::to_string(kernel.block.x) + ", " +
                                             std::to_string(kernel.block.y) + ", " +
                                             std::to_string(kernel.block.z) + ")");
    EXPECT_EQ(record.text("Grid Size"), "(" + std::to_string(kernel.grid.x) + ", " +
                                            std::to_string(kernel.grid.y) + ", " +
                                            std::to_string(kernel.grid.z) + ")");
    for (const auto& [column, text] : record.values) {
      const ReportMetric* m = kernel.metric(column);
      if (m == nullptr || text.find('(') != std::string::npos) continue;
      if (!column.starts_with(prefix)) continue;
      const auto value = m->value.as_double();
      if (!value || !parse_ncu_number(text)) continue;
      EXPECT_TRUE(equal_to_csv_precision(*value, text))
          << page.source << " kernel " << k << " " << column << ": report " << *value << ", CSV "
          << text;
      ++compared;
    }
  }
  EXPECT_GE(compared, min_compared);
}

TEST(NcuReport, SharedStrideFixtureEqualsItsRawExport) {
  const std::string dir = fixtures() + "h200-shared-stride/";
  const Report report = load_ncu_report(dir + "report.ncu-rep");
  EXPECT_EQ(report.version, 7u);
  ASSERT_EQ(report.kernels.size(), 1u);
  const ReportKernel& k = report.kernels[0];
  EXPECT_EQ(k.mangled_name, "_Z1kPKfPfi");
  EXPECT_EQ(k.function_name, "k");
  EXPECT_EQ(k.demangled_name, "k(const float *, float *, int)");
  EXPECT_EQ(k.grid, (Dim3{4096, 1, 1}));
  EXPECT_EQ(k.block, (Dim3{256, 1, 1}));
  EXPECT_EQ(k.stream_id, 7u);
  EXPECT_EQ(k.sm_version, 90u);
  ASSERT_NE(k.cubin, nullptr);
  EXPECT_TRUE(
      k.cubin->starts_with("\x7f"
                           "ELF"));
  EXPECT_EQ(k.number("gpc__cycles_elapsed.max"), 9864.0);
  // Full precision, better than the CSV's two decimals.
  const auto sm_cycles = k.number("sm__cycles_elapsed.avg");
  ASSERT_TRUE(sm_cycles);
  EXPECT_NE(*sm_cycles, std::round(*sm_cycles * 100) / 100);
  const ReportMetric* inst = k.metric("inst_executed");
  ASSERT_NE(inst, nullptr);
  EXPECT_EQ(inst->instances.size(), 26u);
  EXPECT_EQ(inst->instances[0].key.integer & 0xFFFF, 0u);  // The function's first PC.
  EXPECT_EQ(inst->instances[0].value.as_double(), 32768.0);
  const std::string raw = dir + "raw_base.csv";
  expect_report_matches_csv(report, parse_raw_page(read_file(raw), raw), 1500);
  // The scaled-unit export agrees once converted to base units (to its 6 significant digits).
  const RawPage scaled = parse_raw_page(read_file(dir + "raw.csv"), dir + "raw.csv");
  const auto bytes = scaled.records[0].number("dram__bytes_read.sum");
  ASSERT_TRUE(bytes);
  EXPECT_NEAR(*bytes, *k.number("dram__bytes_read.sum"), 1.0);
  EXPECT_NEAR(*scaled.records[0].number("gpu__time_duration.sum"),
              *k.number("gpu__time_duration.sum"), 0.5);
}

// The live export is a second run of the program: launch settings agree, counters vary.
TEST(NcuReport, SaxpyFixtureAgreesWithItsLiveRun) {
  const std::string dir = fixtures() + "h200-saxpy-diverge/";
  const Report report = load_ncu_report(dir + "report.ncu-rep");
  const RawPage page = parse_raw_page(read_file(dir + "raw_live.csv"), dir + "raw_live.csv");
  ASSERT_GE(report.kernels.size(), 1u);
  expect_report_matches_csv(report, page, 20, "launch__");
}

TEST(NcuReport, H200ReferenceEqualsItsRawExportAndInstances) {
  const std::string dir = h200_reference();
  const Report report = load_ncu_report(dir + "report.ncu-rep");
  ASSERT_EQ(report.kernels.size(), 62u);
  const RawPage page = parse_raw_page(read_file(dir + "raw.csv"), dir + "raw.csv");
  expect_report_matches_csv(report, page, 62 * 100);
  const RawPage inst =
      parse_raw_page(read_file(dir + "raw_instances.csv"), dir + "raw_instances.csv");
  ASSERT_EQ(inst.records.size(), 62u);
  for (size_t k = 0; k < 62; ++k) {
    const auto csv = inst.records[k].instanced("sass__inst_executed_per_opcode");
    const ReportMetric* rep = report.kernels[k].metric("sass__inst_executed_per_opcode");
    ASSERT_TRUE(csv);
    ASSERT_NE(rep, nullptr);
    ASSERT_EQ(csv->instances.size(), rep->instances.size()) << k;
    for (size_t i = 0; i < rep->instances.size(); ++i) {
      EXPECT_EQ(csv->instances[i].first, rep->instances[i].key.text);
      EXPECT_EQ(csv->instances[i].second, rep->instances[i].value.as_double());
    }
    const auto pcs = inst.records[k].instanced("inst_executed");
    ASSERT_TRUE(pcs);
    const ReportMetric* rep_pcs = report.kernels[k].metric("inst_executed");
    ASSERT_NE(rep_pcs, nullptr);
    ASSERT_EQ(pcs->instances.size(), rep_pcs->instances.size());
    for (size_t i = 0; i < pcs->instances.size(); ++i) {
      EXPECT_EQ(std::stoull(pcs->instances[i].first, nullptr, 16),
                rep_pcs->instances[i].key.integer);
      EXPECT_EQ(pcs->instances[i].second, rep_pcs->instances[i].value.as_double());
    }
  }
}

TEST(NcuReport, TheMinimalFuzzSeedIsAValidReport) {
  const std::string path =
      testing::source_dir() + "/tests/fuzz/corpus/ncu_report_fuzz/minimal.ncu-rep";
  const Report report = load_ncu_report(path);
  ASSERT_EQ(report.kernels.size(), 1u);
  const ReportKernel& k = report.kernels[0];
  EXPECT_EQ(k.demangled_name, "k()");
  EXPECT_EQ(k.grid, (Dim3{4, 1, 1}));
  EXPECT_EQ(k.sm_version, 90u);
  EXPECT_EQ(k.number("gpc__cycles_elapsed.max"), 9864.0);
  EXPECT_EQ(k.number("sm__cycles_elapsed.avg"), 10003.984848);
  ASSERT_NE(k.metric("inst_executed"), nullptr);
  EXPECT_EQ(k.metric("inst_executed")->instances.size(), 2u);
}

TEST(NcuReport, DisplayNames) {
  EXPECT_EQ(ncu_display_name("void w<(int)2>(float *, int)"), "void w<2>(float *, int)");
  EXPECT_EQ(ncu_display_name("void w<(unsigned int)2, (int)-1>(int)"), "void w<2, -1>(int)");
  EXPECT_EQ(ncu_display_name("k(const float *, float *, int)"), "k(const float *, float *, int)");
}

TEST(NcuReport, ZstdWrappedReportReadsTheSame) {
  const std::string plain = read_file(fixtures() + "h200-shared-stride/report.ncu-rep");
  namespace io = boost::iostreams;
  std::string packed;
  io::filtering_ostream out;
  out.push(io::zstd_compressor());
  out.push(io::back_inserter(packed));
  out.write(plain.data(), static_cast<std::streamsize>(plain.size()));
  out.reset();
  const Report a = parse_ncu_report(plain, "a.ncu-rep");
  const Report b = parse_ncu_report(packed, "a.ncu-repz");
  ASSERT_EQ(b.kernels.size(), 1u);
  EXPECT_EQ(a.kernels[0].metrics.size(), b.kernels[0].metrics.size());
  EXPECT_EQ(b.kernels[0].number("gpc__cycles_elapsed.max"), 9864.0);
  EXPECT_THROW(parse_ncu_report(packed.substr(0, packed.size() / 2), "t.ncu-repz"), InputError);
}

TEST(NcuReport, MalformedInputNamesFileAndOffset) {
  EXPECT_THROW(parse_ncu_report("", "e.ncu-rep"), InputError);
  EXPECT_THROW(parse_ncu_report("NVR", "e.ncu-rep"), InputError);
  EXPECT_THROW(load_ncu_report("/nonexistent/x.ncu-rep"), InputError);
  const std::string plain = read_file(fixtures() + "h200-shared-stride/report.ncu-rep");
  for (size_t cut : {size_t{5}, size_t{20}, plain.size() / 3, plain.size() - 1}) {
    try {
      parse_ncu_report(plain.substr(0, cut), "t.ncu-rep");
      ADD_FAILURE() << "truncated at " << cut << " parsed";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("t.ncu-rep: byte "), std::string::npos) << e.what();
    }
  }
  // A flipped length byte inside the payload is reported, not a crash.
  std::string bad = plain;
  bad[plain.size() / 2] = '\xff';
  bad[plain.size() / 2 + 1] = '\xff';
  try {
    parse_ncu_report(bad, "t.ncu-rep");
  } catch (const InputError&) {
  }
}

}  // namespace
}  // namespace warpsim::traces::ncu
