// The workload models against the real H200: for every reference point of a modelled kernel,
// the generated trace's warp-instruction count must equal ncu's smsp__inst_executed.sum, its
// per-opcode counts sass__inst_executed_per_opcode, and its thread-instruction ratio
// smsp__thread_inst_executed_per_inst_executed.ratio (exact properties of the instruction stream,
// independent of timing).
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "traces/cta_trace.h"
#include "traces/kernel_info.h"
#include "traces/ncu/csv.h"
#include "traces/ncu/raw_page.h"
#include "validate/reference.h"
#include "workloads/workload.h"

namespace warpsim::workloads {
namespace {

std::string source_dir() {
  const char* dir = std::getenv("WARPSIM_SOURCE_DIR");
  return dir ? dir : ".";
}

using validate::split;

struct ReferencePoint {
  std::string name, kernel, params;
  double inst = 0, ratio = 0;
  std::map<std::string, double> per_opcode{};  // sass__inst_executed_per_opcode instances
};

// "4,888 (FFMA: 4,097; ISETP: 259; ...)" -> {FFMA: 4097, ISETP: 259, ...}.
std::map<std::string, double> parse_instances(const std::string& text) {
  std::map<std::string, double> out;
  const auto open = text.find('('), close = text.rfind(')');
  if (open == std::string::npos || close == std::string::npos) return out;
  for (const auto& item : split(text.substr(open + 1, close - open - 1), ';')) {
    const auto colon = item.find(':');
    if (colon == std::string::npos) continue;
    std::string name = item.substr(0, colon);
    name.erase(0, name.find_first_not_of(' '));
    out[name] = traces::ncu::parse_ncu_number(item.substr(colon + 1)).value_or(-1);
  }
  return out;
}

std::vector<ReferencePoint> load_reference() {
  const std::string dir = source_dir() + "/validate/reference/h200/";
  std::ifstream points(dir + "points.tsv");
  std::ifstream raw(dir + "raw.csv");
  std::string line;
  std::vector<ReferencePoint> out;
  std::getline(points, line);
  while (std::getline(points, line)) {
    const auto f = split(line, '\t');
    out.push_back({f[1], f[2], f[5], 0, 0});
  }
  std::stringstream text;
  text << raw.rdbuf();
  const auto page = traces::ncu::parse_raw_page(text.str(), dir + "raw.csv");
  for (size_t k = 0; k < out.size(); ++k) {
    out[k].inst = page.require(k, "smsp__inst_executed.sum");
    out[k].ratio = page.require(k, "smsp__thread_inst_executed_per_inst_executed.ratio");
  }
  std::ifstream instances(dir + "raw_instances.csv");
  std::stringstream itext;
  itext << instances.rdbuf();
  const auto ipage = traces::ncu::parse_raw_page(itext.str(), dir + "raw_instances.csv");
  for (size_t k = 0; k < out.size() && k < ipage.records.size(); ++k) {
    out[k].per_opcode =
        parse_instances(std::string(ipage.records[k].text("sass__inst_executed_per_opcode").value_or("")));
  }
  return out;
}

TEST(WorkloadsReference, InstructionCountsMatchTheH200) {
  const auto points = load_reference();
  ASSERT_GE(points.size(), 40u);
  int checked = 0;
  for (const auto& point : points) {
    const Workload* model = nullptr;
    for (const auto& w : all_workloads()) {
      if (w->name() == point.kernel) model = w.get();
    }
    if (model == nullptr) continue;
    std::vector<std::string> args;
    for (const auto& kv : split(point.params, ';')) {
      const std::string key = kv.substr(0, kv.find('='));
      for (const auto& spec : model->params()) {
        if (spec.name == key) args.push_back(kv);
      }
    }
    if (point.inst > 6e6) continue;  // the largest points are checked by `warpsim validate`
    auto source = model->make_source(Params::parse(model->params(), args, point.kernel));
    traces::KernelInfo info;
    ASSERT_TRUE(source->next_kernel(info));
    traces::CtaTrace cta;
    uint64_t inst = 0, threads = 0;
    std::map<std::string, double> per_opcode;
    while (source->next_cta(cta)) {
      for (const auto& warp : cta.warps) {
        inst += warp.instructions.size();
        for (const auto& i : warp.instructions) per_opcode[info.opcodes->info(i.opcode).base] += 1;
        for (const auto& i : warp.instructions) {
          const auto* extras = warp.extras_of(i);
          threads += std::popcount(i.active_mask | (extras ? extras->predicated_off : 0));
        }
      }
    }
    const double ratio = static_cast<double>(threads) / static_cast<double>(inst);
    EXPECT_EQ(static_cast<double>(inst), point.inst) << point.name;
    EXPECT_NEAR(ratio, point.ratio, 0.006) << point.name;
    EXPECT_EQ(per_opcode, point.per_opcode) << point.name;
    ++checked;
  }
  EXPECT_GE(checked, 20);
}

}  // namespace
}  // namespace warpsim::workloads
