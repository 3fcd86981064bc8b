// Reads the Nsight Compute inputs a user hands to `warpsim replay`, whatever their kind: reports
// (.ncu-rep / .ncu-repz), raw pages (with or without instances), details pages (measured cycles
// and duration only) and source pages, whose per-PC SASS listings complete the kernels read
// before them (matched by name and executed instruction count). The kind is detected from the
// content, not the file name. Left out: merging a raw page and a report of the same launches.
#pragma once

#include <string>
#include <vector>

#include "traces/ncu/profile.h"

namespace warpsim::traces::ncu {

/// The profiles of every launch in `paths`, in order. Throws InputError naming the file when it
/// is unreadable or not an Nsight Compute report or CSV export, or when a source page matches
/// none of the kernels read before it.
std::vector<KernelProfile> load_profiles(const std::vector<std::string>& paths);

}  // namespace warpsim::traces::ncu
