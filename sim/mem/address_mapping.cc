#include "sim/mem/address_mapping.h"

#include <algorithm>
#include <string>

#include "arch/error.h"
#include "sim/mem/mem_request.h"

namespace warpsim::mem {
namespace {

// Murmur3-style finaliser of the address bits above the channel field: every bit of q moves the
// channel rotation of the hashed mappings.
std::uint64_t rotation(std::uint64_t q) {
  q ^= q >> 17;
  q *= 0xed5ad4bbULL;
  q ^= q >> 11;
  q *= 0xac4c1b51ULL;
  q ^= q >> 15;
  return q;
}

// The next field of a mixed-radix address: `index` mod `count`, leaving the quotient in `index`.
std::uint32_t take(std::uint64_t& index, std::uint32_t count) {
  const auto field = static_cast<std::uint32_t>(index % count);
  index /= count;
  return field;
}

// Channel, then either column chunk, bank group, bank (ro_ba_bg_co_ch) or, with
// `banks_below_columns`, bank group, bank, column chunk; then row.
class RoBaBgCoCh : public AddressMapping {
 public:
  explicit RoBaBgCoCh(const DramGeometry& g, bool banks_below_columns = false)
      : AddressMapping(g),
        chunks_per_row_(g.row_bytes / g.interleave_bytes),
        banks_below_columns_(banks_below_columns) {}

  DramAddress map(std::uint64_t address) const override {
    const DramGeometry& g = geometry();
    std::uint64_t rest = address / g.interleave_bytes;
    DramAddress a;
    a.channel = take(rest, g.channels);
    const auto offset = static_cast<std::uint32_t>(address % g.interleave_bytes);
    if (!banks_below_columns_) a.column = take(rest, chunks_per_row_) * g.interleave_bytes + offset;
    a.bank_group = take(rest, g.bank_groups);
    a.bank = take(rest, g.banks_per_group);
    if (banks_below_columns_) a.column = take(rest, chunks_per_row_) * g.interleave_bytes + offset;
    a.row = rest;
    return a;
  }

 private:
  std::uint32_t chunks_per_row_;
  bool banks_below_columns_;
};

class PermutedBank : public RoBaBgCoCh {
 public:
  explicit PermutedBank(const DramGeometry& g) : RoBaBgCoCh(g) {}

  DramAddress map(std::uint64_t address) const override {
    DramAddress a = RoBaBgCoCh::map(address);
    const DramGeometry& g = geometry();
    a.bank_group = static_cast<std::uint32_t>((a.bank_group + a.row) % g.bank_groups);
    a.bank = static_cast<std::uint32_t>((a.bank + a.row / g.bank_groups) % g.banks_per_group);
    return a;
  }
};

// The permuted-bank mapping with the channel rotated by a hash of the address bits above the
// channel field: c = (a / interleave) mod channels, q = (a / interleave) / channels, and the
// channel is (c + hash(q)) mod channels. For one q the rotation is a bijection, so a stream still
// spreads evenly over every channel and each channel still sees q, q+1, … (its rows fill in
// order), while power-of-two strides that would land on a few channels of the plain mapping
// spread over many.
class HashedChannel final : public PermutedBank {
 public:
  explicit HashedChannel(const DramGeometry& g) : PermutedBank(g) {}

  DramAddress map(std::uint64_t address) const override {
    DramAddress a = PermutedBank::map(address);
    const DramGeometry& g = geometry();
    const std::uint64_t q = rotation(address / g.interleave_bytes / g.channels);
    a.channel = static_cast<std::uint32_t>((a.channel + q % g.channels) % g.channels);
    return a;
  }
};

// Bank-group interleaving: channel, then bank group, bank, column chunk, row (from the least
// significant field up), with the channel rotated as in hashed_channel. A stream's successive
// chunks on one channel go to different bank groups and banks (back-to-back column commands are
// tCCD_S apart rather than tCCD_L), and a row is filled again only after the stream has swept
// every bank of every channel: concurrent streams open and close many rows rather than each
// filling one.
class HashedBankGroup final : public RoBaBgCoCh {
 public:
  explicit HashedBankGroup(const DramGeometry& g) : RoBaBgCoCh(g, /*banks_below_columns=*/true) {}

  DramAddress map(std::uint64_t address) const override {
    DramAddress a = RoBaBgCoCh::map(address);
    const DramGeometry& g = geometry();
    const std::uint64_t q = rotation(address / g.interleave_bytes / g.channels);
    a.channel = static_cast<std::uint32_t>((a.channel + q % g.channels) % g.channels);
    return a;
  }
};

}  // namespace

AddressMapping::AddressMapping(const DramGeometry& g) : geometry_(g) {
  const auto positive = [](const char* field, std::uint32_t value) {
    if (value == 0) throw InputError(std::string("dram.") + field + ": expected at least 1, got 0");
  };
  positive("channels", g.channels);
  positive("bank_groups", g.bank_groups);
  positive("banks_per_group", g.banks_per_group);
  if (g.interleave_bytes == 0 || g.interleave_bytes % kLineBytes != 0) {
    throw InputError("dram.interleave_bytes: expected a positive multiple of 128, got " +
                     std::to_string(g.interleave_bytes));
  }
  if (g.row_bytes == 0 || g.row_bytes % g.interleave_bytes != 0) {
    throw InputError("dram.row_bytes: expected a positive multiple of dram.interleave_bytes (" +
                     std::to_string(g.interleave_bytes) + "), got " + std::to_string(g.row_bytes));
  }
}

AddressMapping::~AddressMapping() = default;

std::uint64_t AddressMapping::die_line_index(std::uint64_t address, std::uint32_t dies) const {
  const std::uint64_t chunk_lines = geometry_.interleave_bytes / kLineBytes;
  const std::uint64_t channels_per_die = std::max<std::uint32_t>(1, geometry_.channels / dies);
  const std::uint64_t round = address / geometry_.interleave_bytes / geometry_.channels;
  const std::uint64_t rank = map(address).channel % channels_per_die;
  return (round * channels_per_die + rank) * chunk_lines + (address / kLineBytes) % chunk_lines;
}

PolicyRegistry<AddressMapping, const DramGeometry&>& address_mapping_registry() {
  static PolicyRegistry<AddressMapping, const DramGeometry&> registry = [] {
    PolicyRegistry<AddressMapping, const DramGeometry&> r("address mapping");
    r.add("ro_ba_bg_co_ch", [](const DramGeometry& g) { return std::make_unique<RoBaBgCoCh>(g); });
    r.add("permuted_bank", [](const DramGeometry& g) { return std::make_unique<PermutedBank>(g); });
    r.add("hashed_channel",
          [](const DramGeometry& g) { return std::make_unique<HashedChannel>(g); });
    r.add("hashed_bank_group",
          [](const DramGeometry& g) { return std::make_unique<HashedBankGroup>(g); });
    return r;
  }();
  return registry;
}

std::unique_ptr<AddressMapping> make_address_mapping(std::string_view name,
                                                     const DramGeometry& geometry,
                                                     std::string_view field) {
  return address_mapping_registry().create(name, field, geometry);
}

}  // namespace warpsim::mem
