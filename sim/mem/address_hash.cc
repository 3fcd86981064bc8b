#include "sim/mem/address_hash.h"

#include <algorithm>
#include <bit>
#include <string>

#include "arch/error.h"

namespace warpsim::mem {
namespace {

// The line index cut into chunks of `chunk_bits` bits, XORed together.
std::uint64_t xor_fold_line(std::uint64_t line_index, int chunk_bits) {
  const std::uint64_t mask = (std::uint64_t{1} << chunk_bits) - 1;
  std::uint64_t folded = 0;
  for (std::uint64_t rest = line_index; rest != 0; rest >>= chunk_bits) folded ^= rest & mask;
  return folded;
}

class ModuloHash final : public AddressHash {
 public:
  explicit ModuloHash(const AddressHashConfig& config)
      : AddressHash(config), slices_(config.slices) {}

 protected:
  std::uint32_t slice_of_line(std::uint64_t line_index) const override {
    return static_cast<std::uint32_t>(line_index % slices_);
  }

 private:
  std::uint64_t slices_;
};

// "xor_fold" and, with `even`, "xor_fold_even": a fold at or above the slice count goes to a slice
// picked by a mix of the whole line index instead of the fold mod slices.
class XorFoldHash final : public AddressHash {
 public:
  XorFoldHash(const AddressHashConfig& config, bool even)
      : AddressHash(config),
        slices_(config.slices),
        chunk_bits_(std::max(1, static_cast<int>(std::bit_width(config.slices - 1)))),
        even_(even) {}

 protected:
  std::uint32_t slice_of_line(std::uint64_t line_index) const override {
    const std::uint64_t folded = xor_fold_line(line_index, chunk_bits_);
    if (folded < slices_ || !even_) return static_cast<std::uint32_t>(folded % slices_);
    std::uint64_t q = line_index;
    q ^= q >> 33;
    q *= 0xff51afd7ed558ccdULL;
    q ^= q >> 33;
    return static_cast<std::uint32_t>(q % slices_);
  }

 private:
  std::uint64_t slices_;
  int chunk_bits_;
  bool even_;
};

class RotatedHash final : public AddressHash {
 public:
  explicit RotatedHash(const AddressHashConfig& config)
      : AddressHash(config), slices_(config.slices) {}

 protected:
  std::uint32_t slice_of_line(std::uint64_t line_index) const override {
    std::uint64_t q = line_index / slices_;
    q ^= q >> 17;  // murmur3-style finaliser: every bit of q moves the rotation
    q *= 0xed5ad4bbULL;
    q ^= q >> 11;
    q *= 0xac4c1b51ULL;
    q ^= q >> 15;
    return static_cast<std::uint32_t>((line_index % slices_ + q % slices_) % slices_);
  }

 private:
  std::uint64_t slices_;
};

}  // namespace

AddressHash::AddressHash(const AddressHashConfig& config) : config_(config) {
  if (config.partitions == 0) {
    throw InputError("l2.partitions: expected at least 1 partition, got 0");
  }
  if (config.slices == 0 || config.slices % config.partitions != 0) {
    throw InputError("l2.slices: expected a positive multiple of l2.partitions (" +
                     std::to_string(config.partitions) + "), got " + std::to_string(config.slices));
  }
  if (config.sms == 0) throw InputError("sms: expected at least 1 SM, got 0");
  slices_per_partition_ = config.slices / config.partitions;
}

AddressHash::~AddressHash() = default;

PolicyRegistry<AddressHash, const AddressHashConfig&>& address_hash_registry() {
  static PolicyRegistry<AddressHash, const AddressHashConfig&> registry = [] {
    PolicyRegistry<AddressHash, const AddressHashConfig&> r("address hash");
    r.add("modulo", [](const AddressHashConfig& c) { return std::make_unique<ModuloHash>(c); });
    r.add("xor_fold",
          [](const AddressHashConfig& c) { return std::make_unique<XorFoldHash>(c, false); });
    r.add("xor_fold_even",
          [](const AddressHashConfig& c) { return std::make_unique<XorFoldHash>(c, true); });
    r.add("rotated", [](const AddressHashConfig& c) { return std::make_unique<RotatedHash>(c); });
    return r;
  }();
  return registry;
}

std::unique_ptr<AddressHash> make_address_hash(std::string_view name,
                                               const AddressHashConfig& config,
                                               std::string_view field) {
  return address_hash_registry().create(name, field, config);
}

}  // namespace warpsim::mem
