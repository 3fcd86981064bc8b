// Warp-scheduler policies of one SM sub-partition, chosen by name through a registry:
//   "gto"       greedy-then-oldest (default): keep issuing the warp issued last while it is
//               eligible, otherwise the oldest eligible warp (launch order);
//   "gto_drawn" greedy-then-oldest with the CTAs' order drawn: the SM draws a priority for each
//               CTA as it becomes resident (cta_priority(), from the SM's seeded stream), and
//               when the greedy warp cannot issue, the eligible warp of the CTA drawn first
//               issues (the oldest among that CTA's warps). A CTA's place among its SM's CTAs
//               then does not set how fast its warps run: on the GPU a GEMM CTA's slot explains
//               7 % of the variance of its lifetime, under launch order nearly all of it
//               (validate/HISTORY.md, twenty-third and twenty-fifth rounds); the GH100 presets'
//               policy (twenty-sixth round);
//   "lrr"       loose round robin: the first eligible warp after the one issued last, in warp-slot
//               order, wrapping around;
//   "cta_rr"    CTAs in order, warps in turn: the first N warps by their CTA's arrival issue
//               round robin; the others only when none of those is eligible, the first CTA
//               with an eligible warp, its warps in turn (cta_rr_scheduler.cc);
//   "cta_rr_drawn" the same with the CTAs ranked by their drawn priority, as gto_drawn;
//   "two_level" two-level (Narasiman et al., MICRO 2011): an active set of N warps issues in
//               round-robin order; a warp that stalls on a long-latency (L1TEX) dependency leaves
//               the active set for the back of the pending queue, and the oldest pending warp
//               takes its place.
// Warps are named by their SM-wide warp slot (< 64); eligibility arrives as a 64-bit mask, so a
// pick costs a few bit operations and one virtual call per SMSP per cycle, never per warp.
//
// Left out: fetch/decode groups, instruction-buffer depth, and priority hints from the compiler.
#pragma once

#include <bit>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sim/core/sm_config.h"

namespace warpsim::core {

/// A set of SM-wide warp slots (bit i = slot i).
using WarpMask = std::uint64_t;

/// Round robin over `candidates` (non-empty): the first slot after `last` in slot order, wrapping
/// around (last = -1: the lowest slot).
inline int next_in_turn(WarpMask candidates, int last) {
  const WarpMask after = last >= 63 ? 0 : candidates & (~WarpMask{0} << (last + 1));
  return std::countr_zero(after != 0 ? after : candidates);
}

/// One SMSP's issue policy.
class WarpScheduler {
 public:
  virtual ~WarpScheduler() = default;
  /// A warp became resident in `slot` (younger than every resident warp).
  virtual void add_warp(int slot) = 0;
  /// The warp in `slot` retired.
  virtual void remove_warp(int slot) = 0;
  /// Chooses the warp to issue among `eligible` (non-empty), or -1 when the policy lets none of
  /// them issue this cycle. Does not record the choice: call issued() for the warp that issues.
  virtual int pick(WarpMask eligible) = 0;
  /// The warp in `slot` issued an instruction.
  virtual void issued(int slot) = 0;
  /// The warp in `slot` stalled on a long-latency (L1TEX) dependency.
  virtual void long_stall(int slot) { (void)slot; }
  /// The warps added next belong to a CTA of drawn priority `priority` (gto_drawn issues the
  /// lowest first; the other policies ignore it).
  virtual void cta_priority(std::uint64_t priority) { (void)priority; }
  /// The warps the policy may issue from now (the two-level active set; all others: every
  /// resident warp).
  virtual WarpMask issuable() const = 0;
};

/// Builds the policy called `config.scheduler`. Throws warpsim::InputError naming the field
/// sm.scheduler and listing the known policies when there is none by that name.
std::unique_ptr<WarpScheduler> make_warp_scheduler(const SmConfig& config);

/// The registered policy names, sorted.
std::vector<std::string> warp_scheduler_names();

/// Factories of the built-in policies (gto and gto_drawn in gto_scheduler.cc, one .cc each else).
std::unique_ptr<WarpScheduler> make_gto_scheduler(const SmConfig& config);
std::unique_ptr<WarpScheduler> make_gto_drawn_scheduler(const SmConfig& config);
std::unique_ptr<WarpScheduler> make_lrr_scheduler(const SmConfig& config);
std::unique_ptr<WarpScheduler> make_cta_rr_scheduler(const SmConfig& config);
std::unique_ptr<WarpScheduler> make_cta_rr_drawn_scheduler(const SmConfig& config);
std::unique_ptr<WarpScheduler> make_two_level_scheduler(const SmConfig& config);

}  // namespace warpsim::core
