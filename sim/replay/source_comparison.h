// The measured and the simulated source page side by side: for every PC of a replayed kernel, the
// SASS text, the warp instructions ncu counted and the model issued, and for each stall reason the
// share of the kernel's warp-state samples ncu took at that PC beside the share of the simulated
// warp-cycles the model charged there. Shares, not counts: ncu samples one cycle in 2^N, the
// model counts every cycle. This is where a replay's error is found instruction by instruction
// (a load the model waits on that the GPU hid, a pipe the model throttles that the GPU did not).
//
// ncu's column names map to the model's reasons (stall_reason.h): long_sb → long_scoreboard,
// short_sb and imc → short_scoreboard (the model times constant loads as MIO results), math →
// math_pipe_throttle, mio → mio_throttle, lg → lg_throttle, tex → tex_throttle, no_inst →
// no_instruction, dispatch → dispatch_stall, sleep → sleeping; the rest keep their name.
//
// Left out: kernels replayed without a source page (no per-PC samples to compare).
#pragma once

#include <iosfwd>
#include <optional>
#include <string_view>
#include <vector>

#include "sim/core/stall_reason.h"
#include "sim/replay/replay.h"

namespace warpsim::replay {

/// The model's reason for a source-page column name without its prefix ("long_sb"), if any.
std::optional<core::StallReason> reason_of_source_column(std::string_view column);

/// Writes the comparison of every replay that has a source page and a target source profile, as
/// CSV: launch, kernel, pc, sass, executions measured and simulated, the PC's share of all
/// samples / warp-cycles, then <reason>_measured and <reason>_simulated per reason (percent of
/// the kernel's total), then a row for each simulated PC the listing lacks (the replayed stream's
/// closing EXIT). `launch[i]` numbers replays[i].
void write_source_comparison(const std::vector<KernelReplay>& replays,
                             const std::vector<size_t>& launch, std::ostream& os);

}  // namespace warpsim::replay
