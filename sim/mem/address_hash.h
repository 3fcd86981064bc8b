// Which L2 slice is the home of a physical address, and which partition is near to which SM.
//
// The slices split into `partitions` equal groups of consecutive indices (NVIDIA: two), and the
// SMs into as many groups by index (SM s lies next to partition s × partitions / sms). Every line
// has exactly one home slice, so the partitions hold disjoint addresses; a requester in the other
// partition's half pays the far latency. The mapping from line to slice is a replaceable policy
// registered by name:
//   "modulo"   - slice = line index mod slices;
//   "xor_fold" - the line index cut into chunks of ceil(log2(slices)) bits, XORed together, then
//                taken mod slices (with a power-of-two slice count, any aligned run of `slices`
//                consecutive lines visits every slice once, and strides that are multiples of
//                the slice count still spread).
//   "xor_fold_even" - xor_fold, but a fold at or above the slice count goes to a slice picked by
//                a mix of the whole line index, so every slice takes the same share (xor_fold
//                loads slices 0-7 of 120 twice; the GH100 presets use this one, their
//                descriptions say why); the same as xor_fold for a power-of-two slice count.
//   "crc_even" - the line index modulo a primitive polynomial over GF(2) of the same degree (its
//                CRC), folds at or above the slice count sent as xor_fold_even sends them. Like
//                xor_fold, any aligned run of 2^degree lines maps one to one; unlike it, no two
//                index bits below 2^degree - 1 share a column, so a stride of 2^k + 1 lines (a row
//                pitch padded by one line) spreads: a warp's 32 stores 129 lines apart reach 14
//                of 96 slices on average over starting lines under xor_fold (1 at worst), 29
//                under crc_even (24 at worst).
//   "crc_block" - crc_even, but the folds at or above the slice count of one aligned run of
//                2^degree lines go to consecutive slices from an offset drawn per run (a mix of
//                the run's index), so a run's lines load every slice within one line of each
//                other and a contiguous range's slices lie closer than when every such line draws
//                its own slice (24 MB over 96 slices: 74 lines between the most and the least
//                loaded against 96; the GH100 presets use this one, their descriptions say why).
//   "rotated"  - slice = (line index + h(line index / slices)) mod slices, h a murmur3-style
//                mix: every aligned run of `slices` consecutive lines visits every slice once
//                for any slice count (xor_fold over 120 slices loads slices 0-7 twice), so a
//                contiguous range loads every slice within one line of the others, and the
//                rotation spreads strides that are multiples of the slice count.
// With `chunk_lines` above one, the policy hashes the index of each aligned chunk of that many
// lines instead, so a slice takes the chunk's lines together (the GH100 L2 gives its slices
// 512-byte chunks: validate/reference/h200/l2_slice_spread_h100.tsv).
//
// Left out: the undocumented hash of real NVIDIA parts, and replication of lines in both
// partitions (data never lives in two slices).
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>

#include "sim/mem/policy_registry.h"

namespace warpsim::mem {

/// The geometry an address hash maps onto.
struct AddressHashConfig {
  std::uint32_t slices = 0;      ///< L2 slices over all partitions; a multiple of `partitions`
  std::uint32_t partitions = 2;  ///< L2 partitions (1 or more)
  std::uint32_t sms = 0;         ///< SMs, split into `partitions` groups by index
  std::uint32_t chunk_lines = 1;  ///< consecutive lines one slice takes (a power of two)
};

/// The partition next to SM `sm` when `sms` SMs split into `partitions` groups by index.
inline std::uint32_t sm_partition(std::uint32_t sm, std::uint32_t sms, std::uint32_t partitions) {
  return static_cast<std::uint32_t>(std::uint64_t{sm} * partitions / sms);
}

/// A line's home: its partition and its slice (global index over all partitions).
struct SliceLocation {
  std::uint32_t partition = 0;
  std::uint32_t slice = 0;
};

/// Maps addresses to slices. Subclasses implement `slice_of_line`.
class AddressHash {
 public:
  /// Throws warpsim::InputError naming the field when the geometry is invalid.
  explicit AddressHash(const AddressHashConfig& config);
  virtual ~AddressHash();

  /// The home of the line holding byte `address`.
  SliceLocation locate(std::uint64_t address) const {
    const std::uint32_t slice = slice_of_line(address >> chunk_shift_);
    return {slice / slices_per_partition_, slice};
  }
  /// The partition next to SM `sm` (sm < sms).
  std::uint32_t sm_partition(std::uint32_t sm) const {
    return mem::sm_partition(sm, config_.sms, config_.partitions);
  }
  /// The partition of slice `slice`.
  std::uint32_t slice_partition(std::uint32_t slice) const { return slice / slices_per_partition_; }
  /// The geometry.
  const AddressHashConfig& config() const { return config_; }

 protected:
  /// The slice (0 .. slices-1) of line number `line_index` (address / 128).
  virtual std::uint32_t slice_of_line(std::uint64_t line_index) const = 0;

 private:
  AddressHashConfig config_;
  std::uint32_t slices_per_partition_;
  int chunk_shift_ = 7;  // log2 of the chunk's bytes
};

/// The registry of address hashes; built-ins: "modulo", "xor_fold", "xor_fold_even", "crc_even",
/// "rotated".
PolicyRegistry<AddressHash, const AddressHashConfig&>& address_hash_registry();

/// Builds the hash called `name` (config field `field` for errors).
std::unique_ptr<AddressHash> make_address_hash(std::string_view name,
                                               const AddressHashConfig& config,
                                               std::string_view field = "l2.address_hash");

}  // namespace warpsim::mem
