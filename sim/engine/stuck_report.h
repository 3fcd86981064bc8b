// Text report on stuck components, used by the engine's watchdog and deadlock errors.
//
// Lists each component's name, domain, current and next cycle, whether it is busy, and its
// dump_state, up to a fixed number of components (the rest are counted, not dumped).
#pragma once

#include <cstddef>
#include <iosfwd>
#include <span>

#include "sim/engine/component.h"

namespace warpsim::engine {

/// Components fully described in one report; further ones are only counted.
inline constexpr std::size_t kMaxDumpedComponents = 16;

/// Writes one block per component in `stuck` (in the given order) to `out`.
void write_stuck_report(std::ostream& out, std::span<const Component* const> stuck);

}  // namespace warpsim::engine
