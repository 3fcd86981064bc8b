// How a physical address spreads over HBM channels (pseudo-channels), bank groups, banks, rows
// and columns: a replaceable policy registered by name.
//
// Addresses are cut into chunks of `interleave_bytes` (a multiple of the 128-byte line, so a line
// never spans two channels or rows). Built-ins, from the least significant field up:
//   "ro_ba_bg_co_ch" - channel, then column chunks of a row, then bank group, bank, row: a stream
//                      sweeps all channels, and within a channel fills a row before moving on;
//   "permuted_bank"  - the same, with the bank group and bank indices rotated by the row number
//                      (modulo their counts), so rows that collide on a bank in the plain mapping
//                      spread over banks (Zhang et al., MICRO 2000);
//   "hashed_channel" - permuted_bank with the channel rotated by a hash of the address bits above
//                      the channel field: streams still spread evenly and fill rows in order,
//                      while strided accesses (matrix columns) spread over many channels, as
//                      real controllers' (undocumented) channel hashes make them;
//   "hashed_bank_group" - channel (rotated as in hashed_channel), then bank group, bank, column
//                      chunk, row: a channel's successive chunks of a stream go to other bank
//                      groups and banks, and its rows fill only after every bank has had a chunk,
//                      so concurrent streams share rows little (the H100 / H200 presets: their
//                      loaded load-to-use latency, validate/reference/h200/reduce_load.tsv).
//
// Left out: stacks and ranks as separate levels (a channel is the unit of independence), and the
// exact hashes of real memory controllers.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>

#include "sim/mem/policy_registry.h"

namespace warpsim::mem {

/// Channel and bank geometry of the memory.
struct DramGeometry {
  std::uint32_t channels = 1;            ///< independent channels (pseudo-channels)
  std::uint32_t bank_groups = 4;         ///< bank groups per channel
  std::uint32_t banks_per_group = 4;     ///< banks per bank group
  std::uint32_t row_bytes = 1024;        ///< bytes of one row (page) of one bank
  std::uint32_t interleave_bytes = 256;  ///< consecutive bytes kept on one channel
};

/// Where an address lives in the memory.
struct DramAddress {
  std::uint32_t channel = 0;
  std::uint32_t bank_group = 0;
  std::uint32_t bank = 0;  ///< bank within its group
  std::uint64_t row = 0;
  std::uint32_t column = 0;  ///< byte offset within the row
};

/// Maps addresses to channel, bank and row. Subclasses implement `map`.
class AddressMapping {
 public:
  /// Throws warpsim::InputError naming `dram.<field>` when the geometry is invalid.
  explicit AddressMapping(const DramGeometry& geometry);
  virtual ~AddressMapping();
  /// The location of byte `address`.
  virtual DramAddress map(std::uint64_t address) const = 0;
  /// The geometry.
  const DramGeometry& geometry() const { return geometry_; }
  /// Banks per channel.
  std::uint32_t banks() const { return geometry_.bank_groups * geometry_.banks_per_group; }
  /// With the channels split into `dies` equal groups by index (die = channel / (channels /
  /// dies)): the rank of the line holding `address` among the lines of its die, counted round by
  /// round (a round is one interleave chunk per channel). Dense and one-to-one per die, because
  /// every built-in mapping sends one round's chunks to distinct channels; the die-interleaved
  /// L2 homes hash and index it so that the homes of one die fill its slices and sets evenly.
  std::uint64_t die_line_index(std::uint64_t address, std::uint32_t dies) const;

 private:
  DramGeometry geometry_;
};

/// The registry of address mappings; built-ins: "ro_ba_bg_co_ch", "permuted_bank",
/// "hashed_channel".
PolicyRegistry<AddressMapping, const DramGeometry&>& address_mapping_registry();

/// Builds the mapping called `name` (config field `field` for errors).
std::unique_ptr<AddressMapping> make_address_mapping(std::string_view name,
                                                     const DramGeometry& geometry,
                                                     std::string_view field = "dram.mapping");

}  // namespace warpsim::mem
