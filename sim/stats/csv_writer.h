// Writes a RunReport as long-format CSV: a header `kernel,metric,value,unit`, then one row per
// metric and per stat of every kernel (ncu metrics first, by name, then warpsim's stats in natural
// order). Values are exact: integers in decimal, reals in the shortest form that reads back to the
// same double, undefined values as "n/a". Fields with a comma, a double quote, CR or LF are quoted
// as RFC 4180 says (quotes doubled); lines end with "\n". Kernel names repeat for repeated
// launches: rows keep launch order.
#pragma once

#include <iosfwd>
#include <string>
#include <string_view>

#include "sim/stats/report.h"

namespace warpsim::stats {

/// Writes the report's metrics and stats of every kernel to `out`.
void write_csv(const RunReport& report, std::ostream& out);

/// One CSV field, quoted when RFC 4180 requires it.
std::string csv_field(std::string_view text);

}  // namespace warpsim::stats
