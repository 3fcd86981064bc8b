// An L2 slice's record of the lines that stores wrote in part: sectors holding some bytes written
// by the SMs and the rest never fetched. The slice keeps such a sector without reading it
// (partial_writes_fetch false), but must read it from DRAM before writing it back, since the
// DRAM's ECC covers whole sectors; and it tracks only so many of these lines. On the H200
// (validate/reference/h200/partial_writes.tsv) one 4-byte store per sector over a region writes
// back nothing up to 4 MB of such lines and then a share that grows gradually (7 % of the lines
// at 8 MB, 42 % at 32 MB), each sector with a read: a set-associative record with a hashed index,
// whose sets fill unevenly, behaves so; per-set limits on the L2's evenly filled sets would give a
// sharp knee instead.
//
// A sector counts as complete once the bytes written into it add up to 32 (overlapping stores are
// counted twice) or a store covered it whole; a line whose sectors are all complete leaves the
// record (with keeps_complete it stays until it leaves the slice, is written back or the kernel
// ends, taking room from the lines in flight, and gives nothing up when displaced: on the H100 a
// transpose's later quarters give up more lines than the same quarters launched alone only when
// earlier quarters were written in part in the same launch, not in an earlier launch nor as whole
// lines; validate/reference/h200/partial_pressure_keep_h100.tsv). A line that needs a new entry
// in a full set displaces the set's least recently written entry (or, with random_victim, any of
// its entries), whose partial sectors its slice then reads, writes back and keeps, clean. A warm
// start carries the record to the next kernel with the slice's tags. The set is a
// hash of the line number, or (line_index) the line number modulo the sets, or (with run_lines)
// the line's number among its slice's own lines modulo the sets: then lines in flight at once
// collide more the wider their stride, as on the H100, which gives up 10 % of a naive 2048
// transpose's lines, 12 % and 17 % at two and four times its output pitch and 2 % with its CTAs
// launched column-major (validate/reference/h200/partial_pressure_h100.tsv;
// capture/probes/partial_pressure_compare.py replays them).
//
// Left out: which bytes were written (counts stand for byte masks); reads of a partial sector,
// which the slice answers as if its missing bytes were present.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace warpsim::mem {

/// Size of the record of one slice.
struct PartialLinesConfig {
  std::uint32_t entries = 0;  ///< lines recorded; 0: no record (partial lines are never limited)
  std::uint32_t ways = 0;     ///< entries per set; entries must be a multiple
  bool line_index = false;    ///< set = line number (below) mod sets, not a hash of it
  /// With line_index: the line's number within its slice, (line / (run_lines)) x chunk_lines +
  /// line mod chunk_lines, where a slice takes chunks of `chunk_lines` lines and every run of
  /// `run_lines` lines about one chunk per slice; 0: the line number itself.
  std::uint32_t run_lines = 0;
  std::uint32_t chunk_lines = 1;
  /// A complete line keeps its entry (displaced, it gives nothing up) until take() or
  /// end_kernel().
  bool keeps_complete = false;
  /// A full set's victim is drawn at random (from a hash of the writes so far), not the least
  /// recently written entry.
  bool random_victim = false;
};

/// A line the record gave up, to be written back with a read of its partial sectors.
struct PartialDisplaced {
  bool displaced = false;
  std::uint64_t line_address = 0;
  std::uint8_t partial_sectors = 0;
};

/// The record. Not thread-safe; owned by one L2 slice.
class PartialLines {
 public:
  /// Throws warpsim::InputError naming `<field>.entries` or `<field>.ways` when they do not fit.
  PartialLines(const PartialLinesConfig& config, const std::string& field);

  /// Whether the record is on.
  bool enabled() const { return sets_ != 0; }

  /// Notes a store into `line_address`: `partial` sectors received `bytes_each` bytes each,
  /// `full` sectors were written whole; `valid` are the sectors that were valid before it (a
  /// partial store into a complete sector keeps it complete). Returns the line displaced, if any.
  PartialDisplaced write(std::uint64_t line_address, std::uint8_t partial, std::uint32_t bytes_each,
                         std::uint8_t full, std::uint8_t valid);

  /// The sectors of `line_address` still written in part (0 when not recorded); forgets the line
  /// (it leaves the slice or is written back).
  std::uint8_t take(std::uint64_t line_address);

  /// The kernel ended: the entries of complete lines (kept with keeps_complete) are freed; the
  /// lines still written in part stay recorded.
  void end_kernel();

  /// Lines recorded now.
  std::uint32_t size() const { return size_; }

  /// Entries of the record (0: none).
  std::uint32_t entries() const { return sets_ * ways_; }

 private:
  struct Entry {
    std::uint64_t line_address = 0;
    std::uint64_t stamp = 0;              // last write, for the least recently written
    std::array<std::uint8_t, 4> bytes{};  // bytes written per sector (32: complete)
    bool used = false;
  };

  static std::uint8_t partial_mask(const Entry& e);
  std::uint32_t set_of(std::uint64_t line_address) const;
  Entry* find(std::uint64_t line_address);

  std::uint32_t sets_ = 0;
  std::uint32_t ways_ = 0;
  bool line_index_ = false;
  bool keeps_complete_ = false;
  bool random_victim_ = false;
  std::uint32_t run_lines_ = 0;
  std::uint32_t chunk_lines_ = 1;
  std::uint32_t size_ = 0;
  std::uint64_t clock_ = 0;
  std::vector<Entry> entries_;
};

}  // namespace warpsim::mem
