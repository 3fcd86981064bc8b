// The kernel profile: what one profiled launch measured, gathered from whichever Nsight Compute
// input holds it — a report (`.ncu-rep`), a raw-page CSV (with or without instances), optionally
// completed by the source page's per-PC SASS listing. Launch configuration, registers, shared
// memory, per-PC warp and thread instruction counts with memory space, theoretical L2 sectors and
// shared wavefronts, the opcode mix, SIMT efficiency, sectors per request, hit rates, DRAM bytes,
// bank conflicts, the stall breakdown, measured cycles and duration, and the source GPU. Every
// numeric metric read is kept by its ncu name. Left out: rules, sections, PM sampling.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "traces/dim3.h"

namespace warpsim::traces::ncu {

struct RawRecord;
struct ReportKernel;
struct SourceKernel;

/// Where a PC's memory accesses go (ncu's "Address Space").
enum class PcSpace : uint8_t { kNone, kGlobal, kShared, kLocal, kOther };

/// The measured counters of one static SASS instruction.
struct PcProfile {
  uint64_t offset = 0;         ///< Byte offset from the function's first instruction.
  std::string sass;            ///< Instruction text ("@P0 EXIT"); empty when no listing was read.
  std::string opcode;          ///< Mnemonic with modifiers ("LDG.E"); empty when unknown.
  double warp_insts = 0;       ///< Executed warp instructions over the whole grid.
  double thread_insts = 0;     ///< Thread instructions executed (predicated-off lanes included).
  double pred_on_threads = 0;  ///< Predicated-on thread instructions.
  PcSpace space = PcSpace::kNone;
  bool is_store = false;     ///< A store (or reduction) rather than a load.
  uint32_t access_bits = 0;  ///< Access size per lane, bits; 0 when unknown.
  double l2_sectors = 0;     ///< Theoretical L2 sectors (global).
  double l2_sectors_ideal = 0;
  double l1_tag_requests = 0;  ///< L1 tag lookups (global): the 128 B lines the requests touch.
  double shared_wavefronts = 0;
  double shared_wavefronts_ideal = 0;
  double shared_conflict_ways = 0;  ///< Shared: ncu's "L1 Conflicts Shared N-Way"; 0 when unknown.
  /// Every warp-state column of the source page (issued and not issued samples together), by
  /// the page's name without its `stall_` prefix ("long_sb", "wait", "selected"), sorted by name.
  std::vector<std::pair<std::string, double>> samples;

  /// The samples of column `name` ("wait": warps waiting on a fixed stall count before issuing
  /// this instruction; "selected": warps issuing it); 0 when the page has no such column.
  double samples_of(std::string_view name) const;
};

/// One profiled launch.
struct KernelProfile {
  std::string name;          ///< As ncu's CSV pages print it.
  std::string mangled_name;  ///< Empty when the input only had the display name.
  std::string input;         ///< File it was read from.
  Dim3 grid{1, 1, 1};
  Dim3 block{1, 1, 1};
  uint32_t registers_per_thread = 0;
  uint32_t static_shared_bytes = 0;
  uint32_t dynamic_shared_bytes = 0;
  std::string source_gpu;   ///< "NVIDIA H200"; empty when unknown.
  uint32_t sm_version = 0;  ///< e.g. 90; 0 when unknown.

  std::optional<double> cycles;       ///< gpc__cycles_elapsed.max
  std::optional<double> duration_ns;  ///< gpu__time_duration.sum
  std::optional<double> sm_hz;        ///< gpc__cycles_elapsed.avg.per_second
  double warp_instructions = 0;       ///< smsp__inst_executed.sum
  double simt_efficiency = 32;        ///< Threads per warp instruction (32: none lost).
  double global_load_sectors_per_request = 0;
  double global_store_sectors_per_request = 0;
  double shared_wavefronts_per_request = 0;  ///< Loads and stores together.
  std::optional<double> l1_hit_rate_pct, l2_hit_rate_pct;
  double dram_read_bytes = 0, dram_write_bytes = 0;
  double shared_bank_conflicts = 0;          ///< Loads plus stores.
  std::map<std::string, double> stalls;      ///< Reason → warps stalled per issue-active cycle.
  std::map<std::string, double> opcode_mix;  ///< Base opcode → executed warp instructions.
  std::map<std::string, double>
      opcode_mix_full;         ///< Full mnemonic ("HMMA.16816.F32.BF16") → count.
  std::vector<PcProfile> pcs;  ///< Per static instruction in PC order; empty when not measured.
  std::map<std::string, double, std::less<>> metrics;  ///< Every numeric metric, base units.

  /// The metric `name`, or nullopt.
  std::optional<double> metric(std::string_view name) const;
  /// Warps in the grid.
  uint64_t warps() const;
  /// True when per-PC counts carry SASS text (from the source page).
  bool has_listing() const;
};

/// The profile of one launch of a report.
KernelProfile profile_from_report(const ReportKernel& kernel, const std::string& input);

/// The profile of one raw-page record (instanced values, when exported, give the per-PC counts).
KernelProfile profile_from_raw(const RawRecord& record, const std::string& input);

/// Fills the per-PC SASS text and counters of `profile` from its source-page listing. Throws
/// InputError naming the listing when its executed counts contradict the profile's.
void attach_listing(KernelProfile& profile, const SourceKernel& listing);

}  // namespace warpsim::traces::ncu
