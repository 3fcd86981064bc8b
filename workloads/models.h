// The list of built-in workload models.
#pragma once

#include <memory>
#include <vector>

#include "workloads/workload.h"

namespace warpsim::workloads {

/// Builds every built-in model, in the order `warpsim workload list` shows them.
std::vector<std::unique_ptr<Workload>> make_models();

}  // namespace warpsim::workloads
