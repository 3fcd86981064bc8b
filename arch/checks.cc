#include "arch/checks.h"

#include <google/protobuf/descriptor.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <initializer_list>
#include <sstream>

#include "arch/check_context.h"
#include "arch/error.h"
#include "arch/field_text.h"

namespace warpsim::arch {

namespace {

namespace pb = google::protobuf;

// Fields every model needs.
constexpr std::string_view kRequired[] = {
    "name",
    "clocks.sm_mhz",
    "clocks.l2_mhz",
    "clocks.memory_mhz",
    "clocks.vendor_peak_clock_mhz",
    "sm.count",
    "sm.sub_partitions",
    "sm.warp_size",
    "sm.issue_width_per_scheduler",
    "occupancy.max_warps_per_sm",
    "occupancy.max_threads_per_sm",
    "occupancy.max_ctas_per_sm",
    "occupancy.max_threads_per_cta",
    "register_file.registers_per_sm",
    "register_file.max_registers_per_thread",
    "register_file.allocation_unit_registers",
    "l1.capacity_bytes",
    "l1.line_bytes",
    "l1.sector_bytes",
    "l1.hit_latency_cycles",
    "shared_memory.per_sm_max_bytes",
    "shared_memory.per_cta_max_bytes",
    "shared_memory.allocation_unit_bytes",
    "shared_memory.banks",
    "shared_memory.bank_width_bytes",
    "shared_memory.latency_cycles",
    "l2.size_bytes",
    "l2.slices",
    "l2.ways",
    "l2.line_bytes",
    "l2.sector_bytes",
    "l2.near_hit_latency_cycles",
    "l2.far_hit_latency_cycles",
    "hbm.stacks",
    "hbm.channels",
    "hbm.channel_width_bits",
    "hbm.data_rate_gbps_per_pin",
};

// Numbers that may be zero; every other number must be positive.
constexpr std::string_view kZeroAllowed[] = {
    "l1.shared_carveout_kb",
    "l1.sets",  // 0: the ways and a modulo index instead
    "l1.mshr_merge_slots",  // 0: no cap per MSHR entry
    "l1.mshr_waiters",      // 0: the default pool
    "sm.gpu_fence_cycles",  // 0: no round trip
    "sm.instruction_fetch.l0_bytes",          // 0 with l1_bytes: fetch not modelled
    "sm.instruction_fetch.l1_bytes",
    "sm.instruction_fetch.launch_bytes",      // 0: nothing at launch
    "sm.instruction_fetch.cold_line_cycles",  // 0: as line_cycles
    "shared_memory.reserved_per_cta_bytes",
    "l2.sm_partitions",       // partition 0
    "l2.request_coalescer_sm_sources",  // source 0
    "launch.cta_sm_order",    // SM 0
    "launch.cta_sm_priority",  // SM 0
    "launch.cta_launch_interval_cycles",  // 0: any number at once
    "l2.dirty_victim_skip",    // 0: the policy's pick
    "hbm.timings.request_gap_cycles",  // 0: back-to-back requests
    "hbm.background_read_bytes",       // 0: none in that time
    "hbm.background_write_bytes",
};

// Sizes and counts the models decompose into address bits.
constexpr std::string_view kPowerOfTwo[] = {
    "sm.warp_size",
    "register_file.allocation_unit_registers",
    "l1.line_bytes",
    "l1.sector_bytes",
    "l1.sets",
    "shared_memory.allocation_unit_bytes",
    "shared_memory.banks",
    "shared_memory.bank_width_bytes",
    "l2.line_bytes",
    "l2.sector_bytes",
    "hbm.pseudo_channels_per_channel",
    "hbm.bank_groups_per_pseudo_channel",
    "hbm.banks_per_bank_group",
    "hbm.row_bytes",
    "hbm.timings.burst_length",
    "memory_side_cache.line_bytes",
    "l2.slice_chunk_bytes",
};

constexpr std::string_view kDieScopes[] = {"shared", "per_die"};
constexpr std::string_view kSetIndexes[] = {"modulo", "rotated"};
constexpr std::string_view kPartialLineIndexes[] = {"hashed", "line", "slice"};
constexpr std::string_view kPartialLineVictims[] = {"lru", "random"};

void check_required(CheckContext& c);
void check_numbers(CheckContext& c, const pb::Message& message, const std::string& prefix);
void check_number(CheckContext& c, const pb::Message& message, const pb::FieldDescriptor* field,
                  int index, const std::string& path);

void check_required(CheckContext& c) {
  for (const std::string_view path : kRequired) {
    if (!c.has(path)) c.fail(std::string(path) + " is missing (required)", {});
  }
}

void check_numbers(CheckContext& c, const pb::Message& message, const std::string& prefix) {
  const pb::Reflection* r = message.GetReflection();
  std::vector<const pb::FieldDescriptor*> fields;
  r->ListFields(message, &fields);
  for (const pb::FieldDescriptor* field : fields) {
    const std::string path = prefix + field->name();
    if (field->is_map()) {
      const pb::FieldDescriptor* value_field = field->message_type()->map_value();
      for (int i = 0; i < r->FieldSize(message, field); ++i) {
        const pb::Message& entry = r->GetRepeatedMessage(message, field, i);
        const std::string entry_path = path + "[" + map_key_text(entry) + "]";
        if (value_field->cpp_type() == pb::FieldDescriptor::CPPTYPE_MESSAGE) {
          check_numbers(c, entry.GetReflection()->GetMessage(entry, value_field), entry_path + ".");
        } else {
          check_number(c, entry, value_field, -1, entry_path);
        }
      }
    } else if (field->cpp_type() == pb::FieldDescriptor::CPPTYPE_MESSAGE) {
      if (!field->is_repeated()) check_numbers(c, r->GetMessage(message, field), path + ".");
    } else if (field->is_repeated()) {
      for (int i = 0; i < r->FieldSize(message, field); ++i)
        check_number(c, message, field, i, path);
    } else {
      check_number(c, message, field, -1, path);
    }
  }
}

void check_number(CheckContext& c, const pb::Message& message, const pb::FieldDescriptor* field,
                  int index, const std::string& path) {
  const pb::Reflection* r = message.GetReflection();
  const bool repeated = index >= 0;
  double value = 0;
  switch (field->cpp_type()) {
    case pb::FieldDescriptor::CPPTYPE_INT32:
      value = repeated ? r->GetRepeatedInt32(message, field, index) : r->GetInt32(message, field);
      break;
    case pb::FieldDescriptor::CPPTYPE_INT64:
      value = static_cast<double>(repeated ? r->GetRepeatedInt64(message, field, index)
                                           : r->GetInt64(message, field));
      break;
    case pb::FieldDescriptor::CPPTYPE_UINT32:
      value = repeated ? r->GetRepeatedUInt32(message, field, index) : r->GetUInt32(message, field);
      break;
    case pb::FieldDescriptor::CPPTYPE_UINT64:
      value = static_cast<double>(repeated ? r->GetRepeatedUInt64(message, field, index)
                                           : r->GetUInt64(message, field));
      break;
    case pb::FieldDescriptor::CPPTYPE_DOUBLE:
      value = repeated ? r->GetRepeatedDouble(message, field, index) : r->GetDouble(message, field);
      break;
    case pb::FieldDescriptor::CPPTYPE_FLOAT:
      value = repeated ? r->GetRepeatedFloat(message, field, index) : r->GetFloat(message, field);
      break;
    default:
      return;
  }
  const std::string shown = path + " = " + scalar_text(message, field, index);
  if (!std::isfinite(value)) {
    c.fail(shown + " must be a finite number", {path});
    return;
  }
  const bool zero_ok =
      std::find(std::begin(kZeroAllowed), std::end(kZeroAllowed), path) != std::end(kZeroAllowed);
  if (value < 0 || (value == 0 && !zero_ok)) {
    c.fail(shown + (zero_ok ? " must not be negative" : " must be positive"), {path});
  }
}

void check_powers_of_two(CheckContext& c) {
  for (const std::string_view path : kPowerOfTwo) {
    const auto [message, field] = find_field(c.spec(), path);
    if (field == nullptr || !message->GetReflection()->HasField(*message, field)) continue;
    const std::uint64_t value = field->cpp_type() == pb::FieldDescriptor::CPPTYPE_UINT64
                                    ? message->GetReflection()->GetUInt64(*message, field)
                                    : message->GetReflection()->GetUInt32(*message, field);
    if (value != 0 && !std::has_single_bit(value)) {
      c.fail(c.show(path) + " must be a power of two", {path});
    }
  }
}

// Fails `field` unless `value` is one of `names`: `field = "x" must be "a", "b" or "c"`.
template <std::size_t N>
void check_one_of(CheckContext& c, const std::string& field, const std::string& value,
                  const std::string_view (&names)[N]) {
  if (std::find(std::begin(names), std::end(names), value) != std::end(names)) return;
  std::string list;
  for (std::size_t i = 0; i < N; ++i) {
    if (i > 0) list += i + 1 == N ? " or " : ", ";
    list += "\"" + std::string(names[i]) + "\"";
  }
  c.fail(c.show(field) + " must be " + list, {field});
}

void check_memory(CheckContext& c) {
  const L1& l1 = c.spec().l1();
  const SharedMemory& shared = c.spec().shared_memory();
  c.expect_at_most("l1.sector_bytes", l1.sector_bytes(), "l1.line_bytes", l1.line_bytes());
  if (l1.sets() != 0 && l1.has_ways()) {
    c.fail("give l1.ways (a modulo set index) or l1.sets (an XOR-folded one), not both: " +
               c.show("l1.ways") + ", " + c.show("l1.sets"),
           {"l1.ways", "l1.sets"});
  }
  if (l1.sets() > 4096) c.fail(c.show("l1.sets") + " exceeds 4096", {"l1.sets"});
  c.expect_at_most("l2.sector_bytes", c.spec().l2().sector_bytes(), "l2.line_bytes",
                   c.spec().l2().line_bytes());
  if (c.spec().l2().has_slice_chunk_bytes()) {
    c.expect_at_most("l2.line_bytes", c.spec().l2().line_bytes(), "l2.slice_chunk_bytes",
                     c.spec().l2().slice_chunk_bytes());
  }
  c.expect_at_most("shared_memory.per_cta_max_bytes",
                   shared.per_cta_max_bytes() + shared.reserved_per_cta_bytes(),
                   "shared_memory.per_sm_max_bytes", shared.per_sm_max_bytes(),
                   " (with shared_memory.reserved_per_cta_bytes = " +
                       std::to_string(shared.reserved_per_cta_bytes()) + " added per CTA)");
  if (l1.unified_with_shared()) {
    c.expect_at_most("shared_memory.per_sm_max_bytes", shared.per_sm_max_bytes(),
                     "l1.capacity_bytes", l1.capacity_bytes());
    std::uint64_t largest = 0;
    for (const std::uint32_t kb : l1.shared_carveout_kb()) {
      largest = std::max<std::uint64_t>(largest, kb);
      if (c.has("l1.capacity_bytes") && kb * 1024ull > l1.capacity_bytes()) {
        c.fail("l1.shared_carveout_kb has " + std::to_string(kb) + " KiB, more than " +
                   c.show("l1.capacity_bytes"),
               {"l1.shared_carveout_kb", "l1.capacity_bytes"});
      }
    }
    if (l1.shared_carveout_kb_size() > 0 && c.has("shared_memory.per_sm_max_bytes") &&
        largest * 1024 != shared.per_sm_max_bytes()) {
      c.fail(c.show("shared_memory.per_sm_max_bytes") + " differs from the largest carve-out, " +
                 std::to_string(largest) + " KiB in l1.shared_carveout_kb",
             {"shared_memory.per_sm_max_bytes", "l1.shared_carveout_kb"});
    }
  } else if (l1.shared_carveout_kb_size() > 0) {
    c.fail("l1.shared_carveout_kb is set but l1.unified_with_shared is false",
           {"l1.shared_carveout_kb", "l1.unified_with_shared"});
  }

  const L2& l2 = c.spec().l2();
  const std::uint64_t set_bytes =
      static_cast<std::uint64_t>(l2.slices()) * l2.ways() * l2.line_bytes();
  if (set_bytes != 0 && l2.size_bytes() % set_bytes != 0) {
    c.fail(c.show("l2.size_bytes") + " is not a whole number of sets of " + c.show("l2.slices") +
               " x " + c.show("l2.ways") + " x " + c.show("l2.line_bytes"),
           {"l2.size_bytes", "l2.slices", "l2.ways", "l2.line_bytes"});
  }
  c.expect_at_most("l2.near_hit_latency_cycles", l2.near_hit_latency_cycles(),
                   "l2.far_hit_latency_cycles", l2.far_hit_latency_cycles());
  if (l2.request_coalescer_entries() > 65536) {
    c.fail(c.show("l2.request_coalescer_entries") + " exceeds 65536 slots per slice",
           {"l2.request_coalescer_entries"});
  }
  if (l2.far_write_copies() && !l2.far_read_copies()) {
    c.fail(c.show("l2.far_write_copies") + " needs l2.far_read_copies (copies of far writes " +
               "live where copies of far reads do)",
           {"l2.far_write_copies", "l2.far_read_copies"});
  }
  if (l2.has_max_dirty_fraction() && !(l2.max_dirty_fraction() < 1.0)) {
    c.fail(c.show("l2.max_dirty_fraction") + " must be below 1 (absent: no limit)",
           {"l2.max_dirty_fraction"});
  }
  if (l2.has_dirty_victim_skip() && l2.dirty_victim_skip() >= 1.0) {
    c.fail(c.show("l2.dirty_victim_skip") + " must be below 1 (absent: 0)",
           {"l2.dirty_victim_skip"});
  }
  if (l2.partial_lines() != 0) {
    if (l2.partial_line_ways() == 0) {
      c.fail(c.show("l2.partial_line_ways") + " must be at least 1 with " +
                 c.show("l2.partial_lines"),
             {"l2.partial_line_ways", "l2.partial_lines"});
    } else if (l2.slices() != 0 &&
               l2.partial_lines() / l2.slices() < l2.partial_line_ways()) {
      c.fail(c.show("l2.partial_lines") + " leaves a slice less than one set of " +
                 c.show("l2.partial_line_ways") + " over " + c.show("l2.slices"),
             {"l2.partial_lines", "l2.partial_line_ways", "l2.slices"});
    }
  }
  if (l2.ways() > 64) c.fail(c.show("l2.ways") + " exceeds 64", {"l2.ways"});
  if (l2.has_ways() && l2.replacement_candidates() > l2.ways()) {
    c.fail(c.show("l2.replacement_candidates") + " exceeds the " + std::to_string(l2.ways()) +
               " ways (l2.ways)",
           {"l2.replacement_candidates", "l2.ways"});
  }
  if (l2.request_coalescer_followers() > 64) {
    c.fail(c.show("l2.request_coalescer_followers") + " exceeds 64 reads per slot",
           {"l2.request_coalescer_followers"});
  }
  check_one_of(c, "l2.die_scope", l2.die_scope(), kDieScopes);
  check_one_of(c, "l2.set_index", l2.set_index(), kSetIndexes);
  check_one_of(c, "l2.partial_line_index", l2.partial_line_index(), kPartialLineIndexes);
  check_one_of(c, "l2.partial_line_victim", l2.partial_line_victim(), kPartialLineVictims);
  if (l2.die_scope() == "per_die" && c.spec().dies().count() > 0 &&
      l2.slices() % c.spec().dies().count() != 0) {
    c.fail(c.show("l2.slices") + " must divide evenly among " + c.show("dies.count") +
               " when l2.die_scope is \"per_die\"",
           {"l2.slices", "dies.count"});
  }

  const Hbm& hbm = c.spec().hbm();
  if (hbm.stacks() > 0 && hbm.channels() % hbm.stacks() != 0) {
    c.fail(c.show("hbm.channels") + " must divide evenly among " + c.show("hbm.stacks"),
           {"hbm.channels", "hbm.stacks"});
  }
  if (hbm.background_read_bytes_size() != hbm.background_seconds_size() ||
      hbm.background_write_bytes_size() != hbm.background_seconds_size()) {
    c.fail("hbm.background_seconds, hbm.background_read_bytes and hbm.background_write_bytes "
           "must have one length (" + std::to_string(hbm.background_seconds_size()) + ", " +
               std::to_string(hbm.background_read_bytes_size()) + ", " +
               std::to_string(hbm.background_write_bytes_size()) + " values)",
           {"hbm.background_seconds", "hbm.background_read_bytes", "hbm.background_write_bytes"});
  }
  for (int i = 1; i < hbm.background_seconds_size(); ++i) {
    if (!(hbm.background_seconds(i) > hbm.background_seconds(i - 1))) {
      c.fail("hbm.background_seconds must increase: value " + std::to_string(i + 1) + " (" +
                 std::to_string(hbm.background_seconds(i)) + ") is not above the one before",
             {"hbm.background_seconds"});
      break;
    }
  }
  if (c.spec().has_memory_side_cache()) {
    const MemorySideCache& msc = c.spec().memory_side_cache();
    for (const auto* path : {"memory_side_cache.size_bytes", "memory_side_cache.line_bytes"}) {
      if (!c.has(path))
        c.fail(std::string(path) + " is missing (required with a memory-side cache)", {});
    }
    const std::uint64_t msc_set = static_cast<std::uint64_t>(std::max(1u, msc.slices())) *
                                  std::max(1u, msc.ways()) * msc.line_bytes();
    if (msc_set != 0 && msc.size_bytes() % msc_set != 0) {
      c.fail(c.show("memory_side_cache.size_bytes") +
                 " is not a whole number of sets of slices x " + "ways x line_bytes",
             {"memory_side_cache.size_bytes"});
    }
  }
  const Dies& dies = c.spec().dies();
  if (dies.count() > 0 && c.spec().sm().count() % dies.count() != 0) {
    c.fail(c.show("dies.count") + " does not divide " + c.show("sm.count"),
           {"dies.count", "sm.count"});
  }
  if (c.has("dies.sms_per_die") && dies.count() > 0 &&
      static_cast<std::uint64_t>(dies.sms_per_die()) * dies.count() != c.spec().sm().count()) {
    c.fail(c.show("dies.sms_per_die") + " x " + c.show("dies.count") + " differs from " +
               c.show("sm.count"),
           {"dies.sms_per_die", "dies.count", "sm.count"});
  }
  if (dies.count() > 1 && c.has("dies.link_latency_cycles") && dies.link_latency_cycles() == 0) {
    c.fail(c.show("dies.link_latency_cycles") + " must be at least 1 with several dies",
           {"dies.link_latency_cycles"});
  }
  if (dies.count() > 1 && c.spec().l2().die_scope() == "shared" && dies.count() != 2) {
    c.fail(c.show("dies.count") + " must be 2 when l2.die_scope is \"shared\" (one home per "
                                  "line across two dies is what the memory system models)",
           {"dies.count", "l2.die_scope"});
  }
}

}  // namespace

std::vector<std::string> find_violations(const Spec& spec, const Provenance& provenance) {
  CheckContext c(spec, provenance);
  check_required(c);
  check_numbers(c, spec, "");
  check_powers_of_two(c);
  check_memory(c);
  check_occupancy(c);
  check_functional_units(c);
  check_tensor(c);
  check_placement(c);
  return std::move(c.violations());
}

void check_spec(const Spec& spec, const Provenance& provenance, std::string_view source) {
  const std::vector<std::string> violations = find_violations(spec, provenance);
  if (violations.empty()) return;
  std::ostringstream message;
  message << "architecture '" << source << "' is inconsistent:";
  for (const auto& violation : violations) message << "\n  " << violation;
  throw InputError(message.str());
}

}  // namespace warpsim::arch
