#include "sim/mem/address_hash.h"

#include <algorithm>
#include <array>
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

// The mix that sends a fold at or above the slice count to a slice.
std::uint64_t spread_mix(std::uint64_t q) {
  q ^= q >> 33;
  q *= 0xff51afd7ed558ccdULL;
  q ^= q >> 33;
  return q;
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
    return static_cast<std::uint32_t>(spread_mix(line_index) % slices_);
  }

 private:
  std::uint64_t slices_;
  int chunk_bits_;
  bool even_;
};

// "crc_even": the line index reduced modulo a primitive polynomial over GF(2) of degree
// ceil(log2(slices)), i.e. its CRC, and a fold at or above the slice count sent as xor_fold_even
// sends it. Any 2^degree consecutive-bit window of the index maps one to one, as with xor_fold, but
// no two index bits share a column below bit 2^degree - 1, so strides such as 129 or 258 lines
// (xor_fold's bits i and i + degree cancel) spread like any other. "crc_block": the same folds,
// but those at or above the slice count in one aligned run of 2^degree lines (each fold value
// once per run) go to consecutive slices from an offset drawn per run.
class CrcFoldHash final : public AddressHash {
 public:
  CrcFoldHash(const AddressHashConfig& config, bool block_offset)
      : AddressHash(config), slices_(config.slices), block_offset_(block_offset) {
    const int degree = std::max(1, static_cast<int>(std::bit_width(config.slices - 1)));
    if (degree >= static_cast<int>(kPrimitive.size())) {
      throw InputError(
          "l2.slices: the crc_even and crc_block hashes take at most 65536 slices, got " +
          std::to_string(config.slices));
    }
    degree_ = degree;
    const std::uint32_t poly = kPrimitive[degree];
    // table_[b][v]: byte v at byte position b, i.e. v * x^(8b), reduced modulo poly.
    for (int b = 0; b < 8; ++b) {
      for (std::uint32_t v = 0; v < 256; ++v) {
        std::uint64_t r = static_cast<std::uint64_t>(v) << (8 * b);
        for (int bit = 63; bit >= degree; --bit) {
          if ((r >> bit) & 1) r ^= static_cast<std::uint64_t>(poly) << (bit - degree);
        }
        table_[b][v] = static_cast<std::uint32_t>(r);
      }
    }
  }

 protected:
  std::uint32_t slice_of_line(std::uint64_t line_index) const override {
    std::uint32_t folded = 0;
    for (int b = 0; b < 8; ++b) folded ^= table_[b][(line_index >> (8 * b)) & 0xff];
    if (folded < slices_) return folded;
    if (!block_offset_) return static_cast<std::uint32_t>(spread_mix(line_index) % slices_);
    const std::uint64_t block = line_index >> degree_;
    return static_cast<std::uint32_t>((folded - slices_ + spread_mix(block + 1)) % slices_);
  }

 private:
  // Primitive polynomials over GF(2) by degree 1-16 (bit d set for x^d; index 0 unused); degree 7 is x^7 + x^4 + 1,
  // of the 18 of degree 7 the one that spreads a warp's 32 lines best over the worst of the
  // strides 2^n, 2^n ± 1, 2^n + 2^m and 3 x 2^n lines (n < 16): 26.1 slices of 96 on average
  // where xor_fold spreads 4,128-line strides over 11.8.
  static constexpr std::array<std::uint32_t, 17> kPrimitive = {
      0x0,    0x3,    0x7,    0xB,    0x13,   0x25,   0x43,   0x91,   0x11D,
      0x211,  0x409,  0x805,  0x1053, 0x201B, 0x4443, 0x8003, 0x1100B};
  std::uint32_t slices_;
  bool block_offset_;
  int degree_ = 1;
  std::array<std::array<std::uint32_t, 256>, 8> table_{};
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
  if (!std::has_single_bit(config.chunk_lines)) {
    throw InputError("l2.slice_chunk_bytes: expected a power-of-two number of 128-byte lines, got " +
                     std::to_string(config.chunk_lines) + " lines");
  }
  slices_per_partition_ = config.slices / config.partitions;
  chunk_shift_ = 7 + std::countr_zero(config.chunk_lines);
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
    r.add("crc_even",
          [](const AddressHashConfig& c) { return std::make_unique<CrcFoldHash>(c, false); });
    r.add("crc_block",
          [](const AddressHashConfig& c) { return std::make_unique<CrcFoldHash>(c, true); });
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
