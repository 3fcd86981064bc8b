#include "traces/warp_trace.h"

#include <algorithm>

#include "arch/error.h"

namespace warpsim::traces {
namespace {

[[noreturn]] void bad_index(const char* what, uint64_t index, uint64_t size) {
  throw InternalError(std::string("warp trace: ") + what + " " + std::to_string(index) +
                      " out of range (size " + std::to_string(size) + ")");
}

/// Values recorded for operands [0, count) of an instruction.
uint64_t value_count(uint16_t wide_values, uint32_t count, uint32_t warp_size) {
  uint64_t total = 0;
  for (uint32_t i = 0; i < count; ++i) total += ((wide_values >> i) & 1u) ? warp_size : 1;
  return total;
}

}  // namespace

void WarpTrace::clear() {
  instructions.clear();
  addresses.clear();
  extras.clear();
  values.clear();
  line_numbers.clear();
  more.reset();
}

void WarpTrace::drop_front(size_t count) {
  count = std::min(count, instructions.size());
  if (count == 0) return;
  // The pools are appended in instruction order, so the kept instructions' entries start at the
  // least offset any of them uses; everything before it belongs to dropped instructions.
  size_t first_address = addresses.size();
  size_t first_extras = extras.size();
  size_t first_value = values.size();
  for (size_t i = count; i < instructions.size(); ++i) {
    const WarpInstruction& inst = instructions[i];
    if (inst.has_lane_addresses()) first_address = std::min<size_t>(first_address, inst.mem_offset);
    if (inst.extras == kNoExtras) continue;
    first_extras = std::min<size_t>(first_extras, inst.extras);
    const InstructionExtras& ex = extras[inst.extras];
    if (ex.tma) first_address = std::min<size_t>(first_address, ex.tma->address_offset);
    if (ex.has_values) first_value = std::min<size_t>(first_value, ex.values_offset);
  }
  instructions.erase(instructions.begin(), instructions.begin() + static_cast<ptrdiff_t>(count));
  if (!line_numbers.empty()) {
    const size_t lines = std::min(count, line_numbers.size());
    line_numbers.erase(line_numbers.begin(), line_numbers.begin() + static_cast<ptrdiff_t>(lines));
  }
  addresses.erase(addresses.begin(), addresses.begin() + static_cast<ptrdiff_t>(first_address));
  extras.erase(extras.begin(), extras.begin() + static_cast<ptrdiff_t>(first_extras));
  values.erase(values.begin(), values.begin() + static_cast<ptrdiff_t>(first_value));
  for (WarpInstruction& inst : instructions) {
    if (inst.has_lane_addresses()) inst.mem_offset -= static_cast<uint32_t>(first_address);
    if (inst.extras != kNoExtras) inst.extras -= static_cast<uint32_t>(first_extras);
  }
  for (InstructionExtras& ex : extras) {
    if (ex.tma && ex.tma->address_offset >= first_address) {
      ex.tma->address_offset -= static_cast<uint32_t>(first_address);
    }
    if (ex.has_values && ex.values_offset >= first_value) {
      ex.values_offset -= static_cast<uint32_t>(first_value);
    }
  }
}

void WarpTrace::fill_all() {
  while (more && more->append(*this)) {
  }
  more.reset();
}

void WarpTrace::set_lane_addresses(WarpInstruction& inst,
                                   std::span<const uint64_t> lane_addresses) {
  const uint32_t expected = popcount(inst.active_mask);
  if (lane_addresses.size() != expected) {
    throw InputError("warp " + std::to_string(warp_id) + ", pc " + std::to_string(inst.pc) +
                     ": expected " + std::to_string(expected) +
                     " lane addresses (one per active lane), got " +
                     std::to_string(lane_addresses.size()));
  }
  inst.mem_offset = static_cast<uint32_t>(addresses.size());
  inst.flags |= kInstLaneAddresses;
  const bool uniform =
      expected > 1 && std::all_of(lane_addresses.begin() + 1, lane_addresses.end(),
                                  [&](uint64_t a) { return a == lane_addresses.front(); });
  if (uniform) {
    inst.flags |= kInstUniformAddress;
    addresses.push_back(lane_addresses.front());
  } else {
    inst.flags &= static_cast<uint8_t>(~kInstUniformAddress);
    addresses.insert(addresses.end(), lane_addresses.begin(), lane_addresses.end());
  }
}

std::span<const uint64_t> WarpTrace::lane_addresses(const WarpInstruction& inst) const {
  const uint32_t count = inst.lane_address_count();
  if (count == 0) return {};
  if (uint64_t{inst.mem_offset} + count > addresses.size()) {
    bad_index("lane address offset", inst.mem_offset, addresses.size());
  }
  return {addresses.data() + inst.mem_offset, count};
}

void scatter_lane_addresses(LaneMask mask, std::span<const uint64_t> packed,
                            std::span<uint64_t, kMaxLanes> out) {
  if (packed.size() == 1) {
    for_each_lane(mask, [&](uint32_t lane) { out[lane] = packed[0]; });
    return;
  }
  size_t next = 0;
  for_each_lane(mask, [&](uint32_t lane) { out[lane] = packed[next++]; });
}

void WarpTrace::expand_lane_addresses(const WarpInstruction& inst,
                                      std::span<uint64_t, kMaxLanes> out) const {
  const std::span<const uint64_t> packed = lane_addresses(inst);
  if (packed.empty()) return;
  scatter_lane_addresses(inst.active_mask, packed, out);
}

const InstructionExtras* WarpTrace::extras_of(const WarpInstruction& inst) const {
  if (inst.extras == kNoExtras) return nullptr;
  if (inst.extras >= extras.size()) bad_index("extras index", inst.extras, extras.size());
  return &extras[inst.extras];
}

InstructionExtras& WarpTrace::mutable_extras(WarpInstruction& inst) {
  if (inst.extras == kNoExtras) {
    inst.extras = static_cast<uint32_t>(extras.size());
    extras.emplace_back();
  } else if (inst.extras >= extras.size()) {
    bad_index("extras index", inst.extras, extras.size());
  }
  return extras[inst.extras];
}

std::span<const uint64_t> WarpTrace::tma_addresses(const WarpInstruction& inst) const {
  const InstructionExtras* ex = extras_of(inst);
  if (ex == nullptr || !ex->tma || ex->tma->address_count == 0) return {};
  const TmaInfo& tma = *ex->tma;
  if (uint64_t{tma.address_offset} + tma.address_count > addresses.size()) {
    bad_index("TMA address offset", tma.address_offset, addresses.size());
  }
  return {addresses.data() + tma.address_offset, tma.address_count};
}

std::span<const uint32_t> WarpTrace::operand_values(const WarpInstruction& inst, uint32_t operand,
                                                    uint32_t warp_size) const {
  const InstructionExtras* ex = extras_of(inst);
  const uint32_t operands = uint32_t{inst.num_dst} + inst.num_src;
  if (ex == nullptr || !ex->has_values || operand >= operands) return {};
  const uint64_t start = ex->values_offset + value_count(ex->wide_values, operand, warp_size);
  const uint64_t count = ((ex->wide_values >> operand) & 1u) ? warp_size : 1;
  if (start + count > values.size()) bad_index("value offset", start, values.size());
  return {values.data() + start, count};
}

size_t WarpTrace::memory_bytes() const {
  return instructions.capacity() * sizeof(WarpInstruction) +
         addresses.capacity() * sizeof(uint64_t) + extras.capacity() * sizeof(InstructionExtras) +
         values.capacity() * sizeof(uint32_t) + line_numbers.capacity() * sizeof(uint32_t);
}

void WarpTrace::validate(const std::string& where, uint32_t warp_size) const {
  const auto fail = [&](size_t i, const std::string& what) {
    throw InputError(where + ", warp " + std::to_string(warp_id) + ", instruction " +
                     std::to_string(i) + ": " + what);
  };
  if (!line_numbers.empty() && line_numbers.size() != instructions.size()) {
    fail(0, "expected one line number per instruction (" + std::to_string(instructions.size()) +
                "), got " + std::to_string(line_numbers.size()));
  }
  const LaneMask lanes = full_mask(warp_size);
  for (size_t i = 0; i < instructions.size(); ++i) {
    const WarpInstruction& inst = instructions[i];
    if (inst.num_dst > kMaxDsts) fail(i, "more than 4 destination registers");
    if (inst.num_src > kMaxSrcs) fail(i, "more than 6 source registers");
    if ((inst.active_mask & ~lanes) != 0) {
      fail(i, "active mask has lanes beyond the warp size " + std::to_string(warp_size));
    }
    if (inst.has_lane_addresses() &&
        uint64_t{inst.mem_offset} + inst.lane_address_count() > addresses.size()) {
      fail(i, "lane addresses beyond the address pool");
    }
    if (inst.extras == kNoExtras) continue;
    if (inst.extras >= extras.size()) fail(i, "extras index beyond the extras pool");
    const InstructionExtras& ex = extras[inst.extras];
    if (ex.tma && uint64_t{ex.tma->address_offset} + ex.tma->address_count > addresses.size()) {
      fail(i, "TMA addresses beyond the address pool");
    }
    const uint32_t operands = uint32_t{inst.num_dst} + inst.num_src;
    if (ex.has_values &&
        ex.values_offset + value_count(ex.wide_values, operands, warp_size) > values.size()) {
      fail(i, "register values beyond the value pool");
    }
  }
}

}  // namespace warpsim::traces
