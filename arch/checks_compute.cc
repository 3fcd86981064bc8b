// Consistency rules for occupancy, functional units, tensor cores and where CTAs and SMs sit
// (see checks.h).
#include <google/protobuf/descriptor.h>

#include <algorithm>
#include <set>
#include <vector>

#include "arch/check_context.h"
#include "arch/derived.h"
#include "arch/op_class.pb.h"

namespace warpsim::arch {

namespace {

namespace pb = google::protobuf;

constexpr std::string_view kGranularities[] = {"warp", "cta"};

bool has_field(const pb::Message& message, const char* name) {
  const pb::FieldDescriptor* field = message.GetDescriptor()->FindFieldByName(name);
  return field != nullptr && message.GetReflection()->HasField(message, field);
}

}  // namespace

void check_occupancy(CheckContext& c) {
  const Occupancy& o = c.spec().occupancy();
  const std::uint32_t warp = c.spec().sm().warp_size();
  c.expect_at_most("occupancy.max_threads_per_sm", o.max_threads_per_sm(),
                   "occupancy.max_warps_per_sm",
                   static_cast<std::uint64_t>(o.max_warps_per_sm()) * warp, " x sm.warp_size");
  c.expect_at_most("occupancy.max_threads_per_cta", o.max_threads_per_cta(),
                   "occupancy.max_threads_per_sm", o.max_threads_per_sm());
  if (warp > 0 && o.max_threads_per_cta() % warp != 0) {
    c.fail(
        c.show("occupancy.max_threads_per_cta") + " is not a multiple of " + c.show("sm.warp_size"),
        {"occupancy.max_threads_per_cta", "sm.warp_size"});
  }
  const std::uint32_t parts = c.spec().sm().sub_partitions();
  if (parts > 0 && o.max_warps_per_sm() % parts != 0) {
    c.fail(c.show("occupancy.max_warps_per_sm") + " does not divide among " +
               c.show("sm.sub_partitions"),
           {"occupancy.max_warps_per_sm", "sm.sub_partitions"});
  }
  const RegisterFile& rf = c.spec().register_file();
  c.expect_at_most("register_file.max_registers_per_thread",
                   static_cast<std::uint64_t>(rf.max_registers_per_thread()) * warp,
                   "register_file.registers_per_sm", rf.registers_per_sm(),
                   " (times sm.warp_size)");
  c.expect_at_most("register_file.max_registers_per_cta", rf.max_registers_per_cta(),
                   "register_file.registers_per_sm", rf.registers_per_sm());
  c.expect_at_most("register_file.allocation_unit_registers", rf.allocation_unit_registers(),
                   "register_file.registers_per_sm", rf.registers_per_sm());
  if (rf.has_allocation_granularity() &&
      std::find(std::begin(kGranularities), std::end(kGranularities),
                rf.allocation_granularity()) == std::end(kGranularities)) {
    c.fail(c.show("register_file.allocation_granularity") + " must be \"warp\" or \"cta\"",
           {"register_file.allocation_granularity"});
  }
}

void check_functional_units(CheckContext& c) {
  const pb::EnumDescriptor* classes = OpClass_descriptor();
  const std::uint32_t warp = c.spec().sm().warp_size();
  for (int i = 0; i < classes->value_count(); ++i) {
    const auto op_class = static_cast<OpClass>(classes->value(i)->number());
    if (op_class == OP_CLASS_UNKNOWN) continue;
    const pb::FieldDescriptor* field = FunctionalUnits::descriptor()->FindFieldByNumber(op_class);
    const std::string path = "functional_units." + (field != nullptr ? field->name() : "?");
    if (field == nullptr) {
      c.fail("FunctionalUnits has no field for op class " + classes->value(i)->name(), {});
      continue;
    }
    const FunctionalUnit& unit = functional_unit(c.spec(), op_class);
    for (const char* name : {"latency_cycles", "initiation_interval_cycles", "lanes"}) {
      if (!c.has(path + "." + name)) c.fail(path + "." + name + " is missing (required)", {});
    }
    if (unit.lanes() > warp && warp > 0) {
      c.fail(c.show(path + ".lanes") + " exceeds " + c.show("sm.warp_size"), {path + ".lanes"});
    }
    if (unit.lanes() > 0 && warp > 0 &&
        static_cast<std::uint64_t>(unit.initiation_interval_cycles()) * unit.lanes() < warp) {
      c.fail(c.show(path + ".initiation_interval_cycles") + " x " + c.show(path + ".lanes") +
                 " is less than " + c.show("sm.warp_size") +
                 ": a warp would issue faster than its " + "lanes process it",
             {path + ".initiation_interval_cycles", path + ".lanes"});
    }
  }
}

void check_tensor(CheckContext& c) {
  const Tensor& tensor = c.spec().tensor();
  std::set<std::string> keys;
  for (const auto& [key, rate] : tensor.dense_flops_per_clk_per_sm()) {
    keys.insert(key);
    if (!data_type_from_key(key)) {
      std::string known;
      for (int i = 1; i < Tensor::DataType_descriptor()->value_count(); ++i) {
        known +=
            (known.empty() ? "" : ", ") + data_type_key(static_cast<Tensor::DataType>(
                                              Tensor::DataType_descriptor()->value(i)->number()));
      }
      const std::string path = "tensor.dense_flops_per_clk_per_sm[" + key + "]";
      c.fail(path + ": unknown data type '" + key + "'; expected one of " + known, {path});
    }
  }
  for (const auto& [name, shape] : tensor.shapes()) {
    const std::string path = "tensor.shapes[" + name + "]";
    for (const char* field : {"m", "n", "k", "latency_cycles"}) {
      if (!has_field(shape, field)) c.fail(path + "." + field + " is missing (required)", {path});
    }
    if (shape.data_type() == Tensor::DATA_TYPE_UNSPECIFIED) {
      c.fail(path + ".data_type is missing (required)", {path});
    } else if (keys.count(data_type_key(shape.data_type())) == 0) {
      c.fail(path + " is " + Tensor::DataType_Name(shape.data_type()) +
                 " but tensor.dense_flops_per_clk_per_sm has no \"" +
                 data_type_key(shape.data_type()) + "\" rate",
             {path});
    }
    if (shape.issue_scope() == Tensor::ISSUE_SCOPE_UNSPECIFIED) {
      c.fail(path + ".issue_scope is missing (required)", {path});
    }
    if (shape.fraction_of_peak() > 1.0) {
      const std::string fraction = path + ".fraction_of_peak";
      c.fail(fraction + " = " + std::to_string(shape.fraction_of_peak()) + " must be at most 1",
             {fraction});
    }
  }
}

// Each coalescer source below 256, and (where both tables name every SM) next to one partition.
void check_coalescer_sources(CheckContext& c) {
  const auto& l2 = c.spec().l2();
  const auto& sources = l2.request_coalescer_sm_sources();
  for (const std::uint32_t source : sources) {
    if (source > 255) {
      c.fail("l2.request_coalescer_sm_sources names source " + std::to_string(source) +
                 ", not below 256",
             {"l2.request_coalescer_sm_sources"});
      return;
    }
  }
  if (sources.size() != l2.sm_partitions().size()) return;
  for (const std::uint32_t p : l2.sm_partitions()) {
    if (p >= l2.partitions()) return;  // reported by check_placement
  }
  std::vector<int> partition(256, -1);
  for (int sm = 0; sm < static_cast<int>(sources.size()); ++sm) {
    int& p = partition[sources[sm]];
    const int mine = static_cast<int>(l2.sm_partitions(sm));
    if (p >= 0 && p != mine) {
      c.fail("l2.request_coalescer_sm_sources puts SM " + std::to_string(sm) + " (partition " +
                 std::to_string(mine) + " in l2.sm_partitions) in source " +
                 std::to_string(sources[sm]) + " with SMs of partition " + std::to_string(p) +
                 "; a source's SMs must share one partition",
             {"l2.request_coalescer_sm_sources", "l2.sm_partitions"});
      return;
    }
    p = mine;
  }
}

// The SM tables describe one chip; a description with another sm.count (a what-if sweep) does
// not use them (sim/gpu/gpu_config.cc), so each is checked on its own terms.
void check_placement(CheckContext& c) {
  const auto check_list = [&](const auto& list, const char* path) {
    std::vector<bool> seen(static_cast<std::size_t>(list.size()), false);
    for (const std::uint32_t sm : list) {
      if (sm >= seen.size() || seen[sm]) {
        c.fail(std::string(path) + " must name each of its " + std::to_string(list.size()) +
                   " SMs (0 to " + std::to_string(list.size() - 1) + ") once; " +
                   std::to_string(sm) + " is out of range or repeated",
               {path});
        return;
      }
      seen[sm] = true;
    }
  };
  check_list(c.spec().launch().cta_sm_order(), "launch.cta_sm_order");
  check_list(c.spec().launch().cta_sm_priority(), "launch.cta_sm_priority");
  const std::uint32_t partitions = c.spec().l2().partitions();
  for (const std::uint32_t p : c.spec().l2().sm_partitions()) {
    if (p >= partitions) {
      c.fail("l2.sm_partitions names partition " + std::to_string(p) + ", not below " +
                 c.show("l2.partitions"),
             {"l2.sm_partitions", "l2.partitions"});
      break;
    }
  }
  check_coalescer_sources(c);
}

}  // namespace warpsim::arch
