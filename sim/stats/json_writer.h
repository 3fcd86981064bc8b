// Writes a RunReport as JSON in the layout of DESIGN.md ("The command line"):
//   { "warpsim_version", "arch": {"name", "config"}, "kernels": [ {"name", "grid": [x,y,z],
//     "block": [x,y,z], "metrics": {...}, "stats": {...}} ], "simulation": {...} }
// `metrics` maps ncu names to values (in ncu's units, see ncu_catalogue.h); `stats` nests warpsim's
// stats by their dotted names, with instance indices as JSON arrays ("gpu.sm[1].l1.hits" ->
// stats.gpu.sm[1].l1.hits; missing instances are null). On request each kernel also gets a "units"
// object mapping every full name to its unit. Numbers are JSON numbers, counts exact up to 2^53;
// undefined values are null. Printed by protobuf's JSON support from report.proto, serialized
// deterministically so that object keys come out sorted and the output is identical from run to
// run.
#pragma once

#include <google/protobuf/message.h>
#include <google/protobuf/util/json_util.h>

#include <iosfwd>
#include <string>

#include "sim/stats/report.h"

namespace warpsim::stats {

/// `message` as JSON text (no trailing newline) with every map's keys, google.protobuf.Struct's
/// included, in sorted order, so that the text is the same from run to run. Throws
/// warpsim::InternalError when the message cannot be printed.
std::string sorted_json(const google::protobuf::Message& message,
                        const google::protobuf::util::JsonPrintOptions& print);

/// Options of the JSON writer.
struct JsonOptions {
  bool pretty = true;          ///< Indented, one member per line.
  bool include_units = false;  ///< Add a "units" object (full name -> unit) to each kernel.
};

/// The report as JSON text (no trailing newline). Throws warpsim::InternalError when a snapshot's
/// stat names cannot be nested (a name both a value and a group).
std::string to_json(const RunReport& report, const JsonOptions& options = {});

/// Writes to_json(report, options) and a newline to `out`.
void write_json(const RunReport& report, std::ostream& out, const JsonOptions& options = {});

}  // namespace warpsim::stats
