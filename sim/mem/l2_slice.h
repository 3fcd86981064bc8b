// One L2 slice: a sectored, set-associative, write-back cache for the lines whose home it is
// (address_hash.h), with MSHRs and a per-slice lookup bandwidth.
//
// Fidelity. Requests are looked up in arrival order, at most `sectors_per_cycle` sectors per cycle
// (rate_limiter.h). Writes allocate: a sector written completely (MemRequest::full_write_mask) is
// not fetched, a partially written one is unless `partial_writes_fetch` is false (the L2 keeps
// per-byte write masks; the written bytes are treated as the sector's valid data); atomics and
// reductions read-modify-write at the slice and need their sectors. Missing sectors are fetched
// from the next level (one read request per miss for the missing sectors of the line, each widened
// to its aligned group of `fetch_sectors` sectors, which all become valid); later misses to the
// line merge into its MSHR. Dirty sectors of an evicted line are written back (one write request
// per eviction). Tag state changes at lookup time (cache_tags.h), so the cache contents depend on
// the request order only.
//
// Timing, in cycles of the slice's clock domain, measured from the cycle a request is visible at
// the slice to the cycle its response is visible at the receiver of the upstream response port
// (whose latency is part of it): a hit takes `hit_latency_near_cycles` when the requesting SM lies
// next to the slice's partition and `hit_latency_far_cycles` otherwise (H800: ~260 and ~414 SM
// cycles end to end; the crossbar's share is configured on the interconnect). A miss answers
// `fill_latency_cycles` after the last sector it needs arrives, plus (far − near) for a far
// requester. The near/far difference comes from the requester's position.
//
// Near-partition copies (`far_read_copies`, NVIDIA's two-partition L2: "each L2 partition
// localizes and caches data for memory accesses from SMs in the GPCs directly connected to the
// partition"). The slices of one column (same index within each partition, see
// l2_slice_group.h) know each other. A read from an SM of partition q of a line homed here in
// partition p != q first looks for a copy in the column's slice of partition q: when it holds
// every needed sector (none still being fetched) the read answers at the near latency and only
// refreshes the copy's replacement state. Otherwise the home serves it as above (far latency on a
// hit, its fetch on a miss) and the copy is installed in partition q's slice at lookup time,
// where it competes with that slice's own lines (a dirty victim is written back by that slice).
// Writes, atomics and reductions are served at the home and drop every copy of the line; with
// `far_write_copies` a plain write from a far SM instead leaves a clean copy of the sectors it
// wrote in its near partition, as a read would (copies elsewhere are dropped). So the
// lines one SM reuses must fit in its near partition, and a footprint beyond half the L2 cannot
// stay in both halves. The copy lookup is charged to the home's lookup bandwidth.
//
// The link between the partitions (`partition_link_bytes_per_cycle`): what a far request moves
// across, a read's sectors answered from this home (not a copy's) or a write's bytes, is charged
// to the slice's even share of the link's width (rate_limiter.h), of which an idle slice saves up
// `partition_link_burst_cycles` cycles' worth to spend at once (the slices share one link, so a
// chunk's lines may cross together in the share the others leave); while the share is spent, the
// next far request waits at the head of the queue (near ones pass). On the H200 a stream of
// full-line stores into the L2 moves 2.3 KB per cycle, half of it to the far partition
// (validate/reference/h200/dirty_l2.tsv), which the L2's slices alone would exceed by a third.
//
// Writes that carry partially written sectors hold the lookup pipeline for
// `partial_write_request_cycles` once and `partial_write_cycles` per such sector (the
// read-modify-write of the sector under its ECC): on the H200 a one-sector 4-byte store costs
// each of its 96 slices about 3.1 cycles, a four-sector one about 5.0 (partial_scatter.tsv,
// partial_writes.tsv). An atomic or reduction sector holds it `atomic_sector_cycles` (the atomic
// unit's read-combine-write; Nsight Compute gives the H200's slices one red or atom sector per
// cycle against two read sectors), and a fully written sector `write_sector_cycles` when set
// (Nsight Compute's peak for the slice's write sectors is one a cycle; the presets leave it at a
// sector's normal share, validate/HISTORY.md). These costs are cycles of the L2's own clock, in
// steps of 1 / sectors_per_cycle.
//
// Lines written in part (`partial_lines`, partial_lines.h): with a record configured, the slice
// notes every line that stores leave partly written; of a line the record gives up, the partial
// sectors are read from DRAM (the DRAM's ECC covers whole sectors), written back and kept, clean,
// while its complete dirty sectors stay dirty (with `merge_sectors` > 1 the read and the write
// take the whole aligned access unit around each partial sector, complete sectors in it too,
// and with `merge_keeps_unit` the line keeps the unit's unwritten sectors valid as well):
// on the H200 such write-backs move as many bytes as their reads (partial_scatter.tsv, words 8
// at 8 and 16 MB: 0.10 / 0.40 MiB read, 0.10 / 0.41 written; a 2048 naive transpose, whose
// lines complete one sector at a time, 1.03 MB beyond its input read and 1.07 written). Such a
// write-back is deferrable (MemRequest::deferrable): the line stays, and the DRAM may hold it
// while reads wait (dram_channel.h). An evicted partial line is read first too, and its
// write-back is not deferrable. These reads' responses are dropped.
//
// Request coalescer (`coalescer`, request_coalescer.h): a read arriving while a read of the same
// line from an SM of the same source is in flight may join it; it is then answered with it and
// neither looked up nor counted in lts__. The sources are `sm_coalescer_sources`, each within one
// partition (on the H200 an SM's GPC: reads of SMs of two GPCs next to one partition do not join,
// validate/reference/h200/lrc_gpc.tsv), or the partitions themselves.
//
// Statistics follow Nsight Compute's lts__ counters: lts__t_requests, lts__t_sectors,
// lts__t_sectors_lookup_hit / _miss (a sector hits when its tag lookup finds it, valid or still
// being fetched, or when a write covers it without needing a fetch),
// lts__t_sectors_op_read / _write / _atom / _red.
//
// Left out: data, the L2's point of coherence duties (L1 invalidations), compression, residency
// controls (persisting lines), the ECC / tag pipeline structure, bandwidth of the fill path, the
// link's latency (in the far hit latency) and its sharing between slices (an even split with a
// burst allowance, not a shared arbiter).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "sim/engine/component.h"
#include "sim/engine/ring_buffer.h"
#include "sim/mem/cache_tags.h"
#include "sim/mem/mem_link.h"
#include "sim/mem/mshr_table.h"
#include "sim/mem/partial_lines.h"
#include "sim/mem/rate_limiter.h"
#include "sim/mem/request_coalescer.h"

namespace warpsim::mem {

/// Geometry, latencies (slice clock cycles) and queue sizes of one slice.
struct L2SliceConfig {
  CacheTagsConfig tags{.size_bytes = 512 * 1024, .ways = 16};  ///< this slice's share of the L2
  std::uint32_t hit_latency_near_cycles = 100;  ///< hit, requester next to this partition
  std::uint32_t hit_latency_far_cycles = 160;   ///< hit, requester next to another partition
  std::uint32_t fill_latency_cycles = 100;      ///< last needed sector arrives -> response
  std::uint32_t sectors_per_cycle = 4;          ///< lookup bandwidth, at least 1
  std::uint32_t fetch_sectors = 1;              ///< aligned sectors fetched per missing one: 1, 2 or 4
  bool partial_writes_fetch = true;             ///< false: byte-masked writes never fetch
  /// Cycles a partially written sector holds the lookup pipeline (read-modify-write of the
  /// sector's ECC word in the data array), in steps of 1 / sectors_per_cycle (rounded to the
  /// nearest); 0: the normal 1 / sectors_per_cycle.
  double partial_write_cycles = 0;
  /// Cycles a write request with partially written sectors holds the lookup pipeline once,
  /// besides partial_write_cycles per such sector, in steps of 1 / sectors_per_cycle; 0: none.
  double partial_write_request_cycles = 0;
  /// Cycles an atomic or reduction sector holds the lookup pipeline (the atomic unit's
  /// read-combine-write); 0: the normal 1 / sectors_per_cycle.
  std::uint32_t atomic_sector_cycles = 0;
  /// Cycles a fully written sector holds the lookup pipeline, in steps of 1 / sectors_per_cycle;
  /// 0: the normal 1 / sectors_per_cycle.
  double write_sector_cycles = 0;
  /// The record of lines written in part (partial_lines.h); 0 entries: none, such lines stay
  /// until evicted and are written back without a read.
  PartialLinesConfig partial_lines{};
  /// Aligned sectors a partial sector's write-back reads and writes (the DRAM's access unit): 1,
  /// 2 or 4.
  std::uint32_t merge_sectors = 1;
  /// A given-up line keeps its merged units valid, their unwritten sectors included.
  bool merge_keeps_unit = false;
  MshrConfig mshr{};                            ///< lines in flight and merges per line
  std::uint32_t response_queue_entries = 32;    ///< responses ready to leave before stalling
                                                ///< (beyond those still in the hit pipeline)
  std::uint32_t outbound_queue_entries = 16;    ///< fetches / write-backs waiting to leave
  std::uint32_t partition = 0;                  ///< this slice's partition
  std::uint32_t partitions = 1;                 ///< partitions of the L2
  std::uint32_t sms = 1;                        ///< SMs, split into `partitions` groups by index
  /// The partition next to each SM (`sms` entries), where the SMs do not split by index; empty:
  /// they do.
  std::vector<std::uint8_t> sm_partitions;
  bool far_read_copies = false;                 ///< far reads leave a copy in the near partition
  bool far_write_copies = false;                ///< far plain writes leave one too (clean)
  /// Data bytes per L2 cycle that may cross between the partitions, all slices together (a far
  /// read's sectors answered from their home, a far write's bytes); 0: unlimited. Each slice
  /// takes an even share (`slices` of them).
  std::uint32_t partition_link_bytes_per_cycle = 0;
  /// Cycles of its link share a slice may save up and spend at once (at least 1).
  std::uint32_t partition_link_burst_cycles = 1;
  std::uint32_t slices = 1;  ///< slices sharing partition_link_bytes_per_cycle
  RequestCoalescerConfig coalescer{};           ///< reads joining reads in flight (0 entries: none)
  /// The coalescer source of each SM (`sms` entries, each source's SMs next to one partition),
  /// below 256; empty: the SM's partition.
  std::vector<std::uint8_t> sm_coalescer_sources;
};

/// Counters of one slice (ncu names in comments).
struct L2Counters {
  std::uint64_t requests = 0;           ///< lts__t_requests
  std::uint64_t sectors = 0;            ///< lts__t_sectors
  std::uint64_t sectors_hit = 0;        ///< lts__t_sectors_lookup_hit
  std::uint64_t sectors_miss = 0;       ///< lts__t_sectors_lookup_miss
  std::uint64_t sectors_read = 0;       ///< lts__t_sectors_op_read
  std::uint64_t sectors_write = 0;      ///< lts__t_sectors_op_write
  std::uint64_t sectors_atom = 0;       ///< lts__t_sectors_op_atom
  std::uint64_t sectors_red = 0;        ///< lts__t_sectors_op_red
  std::uint64_t fetched_sectors = 0;    ///< sectors requested from the next level
  std::uint64_t writeback_sectors = 0;  ///< dirty sectors written back on eviction
  std::uint64_t evictions = 0;          ///< valid lines evicted
  std::uint64_t dirty_evictions = 0;    ///< evicted lines with at least one dirty sector
  std::uint64_t dirty_cleanings = 0;    ///< lines written back and kept to respect the dirty limit
  std::uint64_t partial_writebacks = 0;  ///< lines written in part written back (record full)
  std::uint64_t partial_reads = 0;      ///< sectors read from DRAM to write back a partial sector
  std::uint64_t mshr_merges = 0;        ///< misses that joined an existing MSHR entry
  std::uint64_t stall_cycles = 0;       ///< cycles a visible request could not be looked up
  std::uint64_t far_requests = 0;       ///< requests from SMs next to another partition
  std::uint64_t copy_hits = 0;          ///< far reads answered by a near-partition copy
  std::uint64_t copy_fills = 0;         ///< copies installed in a near partition
  std::uint64_t copy_invalidations = 0; ///< copies dropped by a write to their line
  std::uint64_t coalescable_sectors = 0;  ///< lrc__request_sectors_op_read_coalescable
  std::uint64_t coalesced_sectors = 0;    ///< lrc__..._op_read_coalescing_achieved_type_hardware

  /// lts__t_sector_hit_rate.pct: 100 × hit / (hit + miss); 0 without lookups.
  double hit_rate_pct() const {
    const std::uint64_t total = sectors_hit + sectors_miss;
    return total == 0 ? 0.0 : 100.0 * static_cast<double>(sectors_hit) / static_cast<double>(total);
  }
};

/// What a warm start carries from one kernel's slice to the next: the tag array (lines, dirty
/// sectors, replacement state) and the record of lines written in part.
struct SliceContents {
  /// Empty contents for a slice of `config` named `name`.
  SliceContents(const L2SliceConfig& config, const std::string& name);
  CacheTags tags;
  PartialLines partial;
};

/// The slice component.
class L2Slice final : public engine::Component {
 public:
  /// Throws warpsim::InputError naming `<name>.<field>` when the config is invalid.
  L2Slice(std::string name, const engine::ClockDomain& domain, const L2SliceConfig& config);

  /// Wires the requester side: the slice pops `link.request` and sends on `link.response`.
  /// Throws warpsim::InputError when a latency is shorter than the response port's latency.
  void set_upstream(const MemLink& link);
  /// Wires the next level: the slice sends on `link.request` and pops `link.response`.
  void set_downstream(const MemLink& link);

  /// The column's slices, indexed by partition (this slice among them), for near-partition
  /// copies; call before the first tick when `far_read_copies` is set.
  void set_column(std::vector<L2Slice*> column);
  /// True when the latest tick made progress (cleared by the call); for a group that ticks it.
  bool take_progress() {
    const bool p = progressed_;
    progressed_ = false;
    return p;
  }

  /// Installs `sector_mask` of `line_address` (dirty when `dirty`) without traffic or counting;
  /// for warm starts. An evicted line is dropped without write-back.
  void warm(std::uint64_t line_address, std::uint8_t sector_mask, bool dirty = false);

  /// Exchanges the slice's contents with `contents`, which must have this slice's geometry: a
  /// warm start hands one kernel's L2 contents to the next kernel's slice. Call only while no
  /// request is in flight (before the first tick, after the last).
  void exchange_contents(SliceContents& contents);

  engine::Cycle tick(engine::Cycle now) override;
  bool busy() const override;
  void dump_state(std::ostream& out) const override;

  /// Counters.
  const L2Counters& counters() const { return counters_; }
  /// The tag array (for inspection).
  const CacheTags& tags() const { return tags_; }
  /// The configuration.
  const L2SliceConfig& config() const { return config_; }

 private:
  std::size_t response_capacity_ = 0;  ///< responses held: the hit pipeline and the queue
  struct Pending {
    engine::Cycle ready = 0;
    std::uint64_t seq = 0;
    MemResponse response{};
  };
  enum class Lookup { kDone, kNoResponseSlot, kNoOutboundSlot, kNoMshr };

  bool is_near(std::uint32_t sm) const;
  /// The partition next to SM `sm` (sm_partitions, or the split by index).
  std::uint32_t sm_partition_of(std::uint32_t sm) const;
  /// Notes forward progress for the engine and for a group.
  void progress() {
    note_progress();
    progressed_ = true;
  }
  /// Installs a clean copy of `sectors` of `line`; false when its write-back has no room.
  bool can_take_copy() const { return outbound_.size() + 1 <= config_.outbound_queue_entries; }
  void install_copy(std::uint64_t line, std::uint8_t sectors);
  // Counts and queues the write-backs an access caused (an evicted dirty line, a cleaned one).
  void write_back(const TagAccess& access);
  // Queues the write-back of `line`'s dirty sectors, after a read of those written in part;
  // `deferrable` when the line stays (the DRAM may hold it while reads wait).
  void send_write_back(const LineState& line, std::uint8_t partial, bool deferrable = false);
  // Outbound slots a lookup of `request` may fill.
  std::uint32_t outbound_needed(const MemRequest& request) const;
  Lookup lookup(const MemRequest& request, engine::Cycle now);
  /// Lookup-bandwidth tokens (a token is 1 / sectors_per_cycle) `request` uses: per read sector
  /// one; per atomic or reduction sector, fully written sector and partially written sector the
  /// tokens of atomic_sector_cycles, write_sector_cycles and partial_write_cycles (one when
  /// unset); and partial_write_request_cycles' tokens once for a write with partial sectors.
  std::uint32_t lookup_cost(const MemRequest& request) const;
  /// `sectors` widened to whole aligned groups of `group` sectors (1, 2 or 4).
  static std::uint8_t widen(std::uint8_t sectors, std::uint32_t group);
  /// `sectors` widened to whole aligned groups of config_.fetch_sectors.
  std::uint8_t widen(std::uint8_t sectors) const;
  void respond(const MemRequest& request, engine::Cycle ready);
  /// respond(), and the reads that joined `request` in the coalescer for the same cycle; `hit`:
  /// answered from the tags, not after a fetch.
  void answer(const MemRequest& request, engine::Cycle ready, bool hit);
  /// The partition of the requesting SM.
  std::uint32_t partition_of(const MemRequest& request) const;
  /// The coalescer source of `request`'s SM (sm_coalescer_sources, or its partition).
  std::uint32_t coalescer_source(const MemRequest& request) const;
  /// Throws InputError when sm_coalescer_sources does not fit the SMs and partitions.
  void check_coalescer_sources() const;
  void take_fills(engine::Cycle now);
  void drain_outbound();
  void send_responses(engine::Cycle now);

  L2SliceConfig config_;
  CacheTags tags_;
  PartialLines partial_;
  MshrTable mshr_;
  RateLimiter lookup_rate_;
  std::uint32_t partial_sector_tokens_ = 1;   // lookup tokens a partially written sector takes
  std::uint32_t partial_request_tokens_ = 0;  // lookup tokens a partial write's setup takes
  std::uint32_t write_sector_tokens_ = 1;     // lookup tokens a fully written sector takes
  std::uint32_t atomic_sector_tokens_ = 1;    // lookup tokens an atomic or reduction sector takes
  RateLimiter link_rate_;  // this slice's share of the partition link, bytes × slices
  RequestCoalescer coalescer_;
  MemLink upstream_{};
  MemLink downstream_{};
  std::uint64_t out_latency_cycles_ = 1;
  std::vector<Pending> responses_;  // min-heap on (ready, seq), capacity reserved
  std::uint64_t next_seq_ = 0;
  engine::RingBuffer<MemRequest> outbound_;  // fetches and write-backs, capacity reserved
  L2Counters counters_;
  std::vector<L2Slice*> column_;  // by partition; empty without far_read_copies
  bool progressed_ = false;
};

}  // namespace warpsim::mem
