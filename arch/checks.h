// Consistency checks of a resolved architecture description, run after inheritance and `--set`:
// required fields present; counts, sizes, latencies and rates positive (and finite); powers of two
// where the models index by bit fields (line, sector, bank, row sizes...); sector <= line; shared
// memory within the unified L1 and per-CTA within per-SM; occupancy limits that agree with each
// other; dies dividing the SM count; L2 and memory-side-cache geometry (size = slices x ways x
// lines x sets); a complete functional-unit table; tensor rates keyed by known data types and
// shapes whose data type has a rate. Names that select implementations (scheduler, hash) are
// validated by their registries, not here.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "arch/arch.pb.h"
#include "arch/provenance.h"

namespace warpsim::arch {

/// Every violated rule, one message each, naming the fields, their values and where each was set.
std::vector<std::string> find_violations(const Spec& spec, const Provenance& provenance);

/// Throws InputError listing every violation (one per line), headed by `source`; returns quietly
/// when there are none.
void check_spec(const Spec& spec, const Provenance& provenance, std::string_view source);

}  // namespace warpsim::arch
