// The instructions of one warp of one CTA, with the warp's side pools: lane addresses (only
// memory instructions use them), rare extras, recorded register values and optional source line
// numbers. clear() keeps every buffer's capacity, so a reused WarpTrace refills without
// allocating in steady state. A source may hand out a warp in pieces (KernelSource::
// stream_warps): the instructions held are then the next part of its stream, and `more` produces
// the rest on demand, so a long warp never holds its whole stream. Accessors check their indices
// and throw InternalError rather than read out of bounds; validate() checks a filled warp and
// names what is wrong.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "traces/instruction.h"

namespace warpsim::traces {

/// Writes packed[k], the address of the k-th active lane of `mask` in lane order, to out[lane];
/// inactive lanes keep their value. `packed` holds popcount(mask) addresses, or one address that
/// every active lane has (a uniform access).
void scatter_lane_addresses(LaneMask mask, std::span<const uint64_t> packed,
                            std::span<uint64_t, kMaxLanes> out);

struct WarpTrace;

/// The rest of a warp's instruction stream, produced on demand.
class WarpStream {
 public:
  virtual ~WarpStream() = default;
  /// Appends the warp's next instructions (one or more) to `warp`, with their pool entries;
  /// false when the stream has ended, appending nothing. Called by whichever thread runs the
  /// warp, one call at a time; a stream shares nothing mutable with other warps' streams.
  /// Throws InputError as the source's next_cta would.
  virtual bool append(WarpTrace& warp) = 0;
};

/// One warp's instruction stream.
struct WarpTrace {
  uint32_t warp_id = 0;                       ///< Warp index within the CTA.
  std::vector<WarpInstruction> instructions;  ///< In program (issue) order.
  std::vector<uint64_t> addresses;            ///< Lane and TMA addresses.
  std::vector<InstructionExtras> extras;      ///< Out-of-line fields.
  std::vector<uint32_t> values;               ///< Recorded register values.
  std::vector<uint32_t> line_numbers;         ///< Empty, or one source line per instruction.
  /// The instructions after those held, when the source streams the warp; null when
  /// `instructions` is the whole stream.
  std::shared_ptr<WarpStream> more;

  /// Empties the warp (and drops `more`), keeping capacity.
  void clear();

  /// Drops the first `count` instructions and the pool entries only they use, moving the rest
  /// (and their pool offsets) to the front; capacity is kept.
  void drop_front(size_t count);

  /// Appends the rest of a streamed warp, so that `instructions` holds all of it.
  void fill_all();

  /// Appends `inst`'s lane addresses (one per active lane, in lane order) and points `inst` at
  /// them; when two or more lanes are active and all have the same address, stores it once and
  /// marks `inst` kInstUniformAddress. Throws InputError when addresses.size() differs from
  /// popcount(inst.active_mask).
  void set_lane_addresses(WarpInstruction& inst, std::span<const uint64_t> lane_addresses);

  /// The stored lane addresses of `inst`: one per active lane in lane order, or one for all
  /// when inst.has_uniform_address() (empty when none). expand_lane_addresses() places them.
  std::span<const uint64_t> lane_addresses(const WarpInstruction& inst) const;

  /// Writes the address of each active lane to out[lane]; inactive lanes keep their value.
  void expand_lane_addresses(const WarpInstruction& inst, std::span<uint64_t, kMaxLanes> out) const;

  /// The extras of `inst`, or nullptr.
  const InstructionExtras* extras_of(const WarpInstruction& inst) const;

  /// The extras of `inst`, created on first use.
  InstructionExtras& mutable_extras(WarpInstruction& inst);

  /// The TMA addresses of `inst` (empty when it has no TMA fields).
  std::span<const uint64_t> tma_addresses(const WarpInstruction& inst) const;

  /// The recorded values of operand `operand` (destinations first, then sources): 1 value, or
  /// one per lane; empty when no values were recorded.
  std::span<const uint32_t> operand_values(const WarpInstruction& inst, uint32_t operand,
                                           uint32_t warp_size) const;

  /// Bytes held by the buffers (capacity), for memory accounting.
  size_t memory_bytes() const;

  /// Checks the pools and counts: every index in range, num_dst/num_src within limits, one
  /// line number per instruction or none. Throws InputError naming `where` and the instruction.
  void validate(const std::string& where, uint32_t warp_size) const;

  /// Field-by-field equality (pool layouts included), for round-trip tests.
  friend bool operator==(const WarpTrace&, const WarpTrace&) = default;
};

}  // namespace warpsim::traces
